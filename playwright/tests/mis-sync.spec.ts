// Manage School › MIS sync on a server of this file's own (SQLite; PostgreSQL in the
// postgres project), with Wonde pointed at the stub on a free port (VOICEMARK_WONDE_URL):
// an admin of Northbridge (Pro, 50 seats) connects Wonde, watches the first sync's progress to the end, sees the counts and the data problems, and
// the token is never shown again; axe finds nothing serious.
import AxeBuilder from '@axe-core/playwright'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { expect, test, type Page } from '@playwright/test'

import { startMailSink, startVoicemark, type Backend, type MailSink, type Voicemark } from '../fixtures/smtp'
import { PASSWORD, USERS } from '../fixtures/users'
import { startWondeStub, type WondeStub } from '../stubs/wonde-server.mjs'

const TOKEN = 'wonde-e2e-token-0123456789abcdef'
const SCHOOL_ID = 'A1930499544'

let mail: MailSink
let server: Voicemark
let wonde: WondeStub
let dataDir: string

test.describe.configure({ mode: 'serial' })

test.beforeAll(async ({}, testInfo) => {
  const backend: Backend = testInfo.project.name === 'postgres' ? 'postgres' : 'sqlite'
  wonde = await startWondeStub({ token: TOKEN, schoolId: SCHOOL_ID, pupils: 120, pageDelayMs: 700 })
  mail = await startMailSink()
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voicemark-e2e-mis-'))
  server = await startVoicemark({
    backend,
    smtpPort: mail.port,
    env: { VOICEMARK_DATA_DIR: dataDir, VOICEMARK_WONDE_URL: wonde.origin },
  })
  server.sql("UPDATE schools SET stripe_product_id = 'prod_pro_e2e', seats = 50 WHERE name = 'Northbridge Academy';")
})

test.afterAll(async () => {
  await server?.stop()
  await mail?.stop()
  await wonde?.stop()
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

test('an admin connects Wonde, watches the sync to the end and sees the data problems', async ({ page }) => {
  await signIn(page)
  await page.goto(`${server.baseURL}/admin/sync`)
  await expect(page.getByRole('heading', { level: 1, name: 'Manage School' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'MIS sync' })).toHaveAttribute('aria-current', 'page')
  const connection = page.getByRole('region', { name: 'Wonde connection' })
  await expect(page.getByText('No sync has run yet.')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  // A wrong token: Wonde refuses it and nothing is saved.
  await connection.getByLabel('Wonde school id').fill(SCHOOL_ID)
  await connection.getByLabel('Wonde access token').fill('not-the-token')
  await connection.getByRole('button', { name: 'Connect Wonde' }).click()
  await expect(connection.getByText('Wonde refused this token.', { exact: false })).toBeVisible()

  await connection.getByLabel('Wonde access token').fill(TOKEN)
  await connection.getByRole('button', { name: 'Connect Wonde' }).click()
  await expect(page.getByText('Connected to Wonde (Wonde Testing School). The first sync has started.', { exact: true })).toBeVisible()

  // The progress of the running sync, then its end.
  const status = page.getByRole('region', { name: 'Sync status' })
  await expect(status.getByText('Full sync in progress')).toBeVisible({ timeout: 15_000 })
  await expect(status.getByText(/^Reading /)).toBeVisible()
  await expect(status.getByRole('heading', { name: /^Last sync \(full, \d\d\/\d\d\/\d{4}, \d\d:\d\d\): finished$/ })).toBeVisible({
    timeout: 30_000,
  })
  const counts = status.getByRole('list', { name: 'Last sync counts' })
  await expect(counts.getByText('120 added')).toBeVisible()
  await expect(counts.getByText('0 updated')).toBeVisible()
  await expect(counts.getByText('0 archived')).toBeVisible()
  await expect(status.getByText(/^Last full sync$/)).toBeVisible()
  await expect(status.locator('dd').first()).toHaveText(/^\d\d\/\d\d\/\d{4}, \d\d:\d\d$/)

  // The token is never sent back: the field is empty and the page says one is saved.
  await expect(connection.getByLabel('Wonde access token')).toHaveValue('')
  await expect(connection.getByText('Token saved.')).toBeVisible()
  expect(await page.content()).not.toContain(TOKEN)

  // The data problems the school must fix in its MIS.
  const problems = page.getByRole('region', { name: 'Data problems to fix in your MIS' })
  // (The demo school's own pupils, entered by hand, are counted too.)
  await expect(problems.getByRole('heading', { name: /^Pupils with no reachable parent \(\d+\)$/ })).toBeVisible()
  await expect(problems.getByRole('list', { name: 'Pupils with no reachable parent' }).getByText('Wonde9 Pupil009')).toBeVisible()
  await expect(problems.getByRole('heading', { name: /^Duplicate e-mail addresses \(\d+\)$/ })).toBeVisible()
  await expect(problems.getByText('shared.pupil@wonde-e2e.test: 2 pupils')).toBeVisible()
  await expect(problems.getByRole('heading', { name: /^Pupils without a form group \(\d+\)$/ })).toBeVisible()
  await expect(problems.getByRole('list', { name: 'Pupils without a form group' }).getByText('Wonde5 Pupil005')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  // The synced pupils are in Manage School's pupil list.
  await page.getByRole('link', { name: 'Pupils' }).click()
  await page.getByLabel('Search pupils').fill('Pupil007')
  await expect(page.getByText('Wonde7').first()).toBeVisible()

  // Wonde was read page by page with the includes, as given in `next`.
  expect(wonde.requests.some((r) => r.includes('/students?per_page=200&include=year%2Cregistration'))).toBe(true)
})
