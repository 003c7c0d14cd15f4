// Manage Users a page at a time (issue 30, docs/scaling.md "Paged lists"), on a server of
// this file's own with 210 more staff in Northbridge: /leaders/users shows 100, then 100
// more and the rest with "Show more users", searches by name on the server, and reads well
// at 360 px; the superadmin's /users shows 200 then the rest; axe finds nothing serious.
import AxeBuilder from '@axe-core/playwright'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { expect, test, type Page } from '@playwright/test'

import { startVoicemark, type Voicemark } from '../fixtures/smtp'
import { PASSWORD, USERS, type DemoUser } from '../fixtures/users'

let server: Voicemark
let dataDir: string
const ADDED = 210

function sqlite(sql: string) {
  const run = spawnSync('sqlite3', [path.join(dataDir, 'voicemark.db'), sql])
  expect(run.status, String(run.stderr)).toBe(0)
  return String(run.stdout).trim()
}

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voicemark-e2e-users-paging-'))
  server = await startVoicemark({ env: { VOICEMARK_DATA_DIR: dataDir } })
  sqlite(`WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${ADDED})
    INSERT INTO users (id, created_at, updated_at, forename, surname, email, activated, school_id, role)
    SELECT 'paged-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'Paged', 'Staff ' || printf('%03d', n),
           'paged-' || n || '@northbridge.test', TRUE,
           (SELECT id FROM schools WHERE name = 'Northbridge Academy'), 'TEACHER' FROM seq;`)
})

test.afterAll(async () => {
  await server?.stop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

async function signIn(page: Page, user: DemoUser) {
  const csrf = await page.request.get(`${server.baseURL}/api/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await page.request.post(`${server.baseURL}/api/auth/callback/credentials`, {
    form: { email: USERS[user], password: PASSWORD, csrfToken, callbackUrl: '/', json: 'true' },
  })
  const { url } = (await response.json()) as { url?: string }
  expect(url ?? '', `sign-in of ${user}`).not.toContain('error=')
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
}

const bodyRows = (page: Page) => page.getByRole('region', { name: 'Users' }).locator('tbody tr')

test('an admin sees the staff 100 at a time and searches all of them', async ({ page }) => {
  const total = Number(sqlite("SELECT COUNT(*) FROM users WHERE school_id = (SELECT id FROM schools WHERE name = 'Northbridge Academy');"))
  expect(total).toBeGreaterThan(200)
  await signIn(page, 'admin')
  await page.goto(`${server.baseURL}/leaders/users`)
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeVisible()
  await expect(page.getByText(`Showing 100 of ${total} users`)).toBeVisible()
  await expect(bodyRows(page)).toHaveCount(100)
  const more = page.getByRole('button', { name: 'Show more users' })
  await more.click()
  await expect(page.getByText(`Showing 200 of ${total} users`)).toBeVisible()
  await expect(bodyRows(page)).toHaveCount(200)
  await more.click()
  await expect(page.getByText(`${total} users`, { exact: true })).toBeVisible()
  await expect(bodyRows(page)).toHaveCount(total)
  await expect(more).toHaveCount(0)
  // The last of the added staff by name is on the last page, once.
  await expect(page.getByRole('row').filter({ hasText: 'paged-210@northbridge.test' })).toHaveCount(1)

  // The search asks the server, so it finds people on pages not loaded yet.
  await page.reload()
  await expect(bodyRows(page)).toHaveCount(100)
  await page.getByLabel('Search users').fill('Staff 20')
  await expect(page.getByText('10 users', { exact: true })).toBeVisible()
  await expect(bodyRows(page)).toHaveCount(10)
  await expect(page.getByRole('row').filter({ hasText: 'paged-205@northbridge.test' })).toBeVisible()
  await page.getByLabel('Search users').fill('nobody like this')
  await expect(page.getByText('No users found.')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  // On a phone the list and its button fit the screen.
  await page.setViewportSize({ width: 360, height: 800 })
  await page.getByLabel('Search users').fill('')
  await expect(more).toBeVisible()
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(360)
  expect(await seriousViolations(page)).toEqual([])
})

test('the superadmin sees every user 200 at a time', async ({ page }) => {
  // 210 rows and an axe pass over them: slow on a busy two-core machine.
  test.slow()
  const total = Number(sqlite('SELECT COUNT(*) FROM users;'))
  await signIn(page, 'superadmin')
  await page.goto(`${server.baseURL}/users`)
  await expect(page.getByRole('heading', { level: 1, name: 'Manage users' })).toBeVisible()
  await expect(page.getByText(`Showing 200 of ${total} users`)).toBeVisible()
  await expect(bodyRows(page)).toHaveCount(200)
  await page.getByRole('button', { name: 'Show more users' }).click()
  await expect(page.getByText(`${total} users`, { exact: true })).toBeVisible()
  await expect(bodyRows(page)).toHaveCount(total)
  expect(await seriousViolations(page)).toEqual([])
})
