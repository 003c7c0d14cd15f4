// Manage School › MIS sync with Groupcall Xporter, on a server of this file's own (SQLite;
// PostgreSQL in the postgres project) with Xporter pointed at the stub on a free port
// (VOICEMARK_XPORTER_URL): an admin of Northbridge
// (Pro, 50 seats) chooses Groupcall Xporter, a wrong secret is refused and nothing is saved,
// the right one connects and the first sync's counts show; the secret is never shown again;
// axe finds nothing serious.
import AxeBuilder from '@axe-core/playwright'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { expect, test, type Page } from '@playwright/test'

import { startMailSink, startVoicemark, type Backend, type MailSink, type Voicemark } from '../fixtures/smtp'
import { PASSWORD, USERS } from '../fixtures/users'
import { startXporterStub, type XporterStub } from '../stubs/xporter-server.mjs'

const GROUPCALL_ID = '3281102'
const SECRET = 'gc-e2e-secret-0123456789'

let mail: MailSink
let server: Voicemark
let xporter: XporterStub
let dataDir: string

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({}, testInfo) => {
  const backend: Backend = testInfo.project.name === 'postgres' ? 'postgres' : 'sqlite'
  xporter = await startXporterStub({ groupcallId: GROUPCALL_ID, secret: SECRET, pupils: 40, pageDelayMs: 300 })
  mail = await startMailSink()
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voicemark-e2e-groupcall-'))
  server = await startVoicemark({
    backend,
    smtpPort: mail.port,
    env: { VOICEMARK_DATA_DIR: dataDir, VOICEMARK_XPORTER_URL: xporter.origin },
  })
  server.sql("UPDATE schools SET stripe_product_id = 'prod_pro_e2e', seats = 50 WHERE name = 'Northbridge Academy';")
})

test.afterAll(async () => {
  await server?.stop()
  await mail?.stop()
  await xporter?.stop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

async function signIn(page: Page) {
  const csrf = await page.request.get(`${server.baseURL}/api/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await page.request.post(`${server.baseURL}/api/auth/callback/credentials`, {
    form: { email: USERS.admin, password: PASSWORD, csrfToken, callbackUrl: '/', json: 'true' },
  })
  const { url } = (await response.json()) as { url?: string }
  expect(url ?? '').not.toContain('error=')
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
}

test('an admin connects Groupcall Xporter and sees the first sync counts', async ({ page }) => {
  await signIn(page)
  await page.goto(`${server.baseURL}/admin/sync`)
  await expect(page.getByRole('heading', { level: 1, name: 'Manage School' })).toBeVisible()
  await expect(page.getByText('No sync has run yet.')).toBeVisible()

  await page.getByRole('group', { name: 'MIS provider' }).getByLabel('Groupcall Xporter').check()
  const connection = page.getByRole('region', { name: 'Groupcall Xporter connection' })
  await expect(connection).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  // A wrong secret: Xporter refuses it and nothing is saved.
  await connection.getByLabel('Groupcall id').fill(GROUPCALL_ID)
  await connection.getByLabel('Groupcall secret').fill('not-the-secret')
  await connection.getByRole('button', { name: 'Connect Groupcall Xporter' }).click()
  await expect(connection.getByText('Groupcall Xporter refused this id and secret.', { exact: false })).toBeVisible()

  await connection.getByLabel('Groupcall secret').fill(SECRET)
  await connection.getByRole('button', { name: 'Connect Groupcall Xporter' }).click()
  await expect(page.getByText('Connected to Groupcall Xporter. The first sync has started.', { exact: true })).toBeVisible()

  const status = page.getByRole('region', { name: 'Sync status' })
  await expect(status.getByRole('heading', { name: /^Last sync \(full, \d\d\/\d\d\/\d{4}, \d\d:\d\d\): finished$/ })).toBeVisible({
    timeout: 30_000,
  })
  const counts = status.getByRole('list', { name: 'Last sync counts' })
  await expect(counts.getByText('40 added')).toBeVisible()
  await expect(counts.getByText('0 updated')).toBeVisible()
  await expect(counts.getByText('0 archived')).toBeVisible()

  // The secret is never shown again; the page says one is saved.
  await expect(connection.getByLabel('Groupcall secret')).toHaveValue('')
  await expect(connection.getByText('Secret saved.')).toBeVisible()
  await expect(page.getByRole('group', { name: 'MIS provider' }).getByLabel('Groupcall Xporter')).toBeChecked()
  const problems = page.getByRole('region', { name: 'Data problems to fix in your MIS' })
  await expect(problems.getByRole('list', { name: 'Pupils with no reachable parent' }).getByText('Groupcall9 Pupil009')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  // Xporter was asked for a token with the school's credentials, then paged through.
  expect(xporter.requests.filter((r) => r.startsWith('POST /api/ims/oneroster/v1p1/token')).length).toBeGreaterThanOrEqual(2)
  expect(xporter.requests.some((r) => r.startsWith('GET /api/ims/oneroster/v1p1/users?limit=200&offset=0'))).toBe(true)
})
