// Activity and Manage School's pupils a page at a time after a stable cursor (issue 30,
// docs/scaling.md "Paged lists"), on a server of this file's own with 45 more messages from
// the demo teacher and 120 more pupils: Next and Previous walk the pages, and a message sent
// while a page is open does not shift the next page (an offset would show a row again).
import AxeBuilder from '@axe-core/playwright'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { expect, test, type Page } from '@playwright/test'

import { startVoicemark, type Voicemark } from '../fixtures/smtp'
import { PASSWORD, USERS } from '../fixtures/users'

let server: Voicemark
let dataDir: string

function sqlite(sql: string) {
  const run = spawnSync('sqlite3', [path.join(dataDir, 'voicemark.db'), sql])
  expect(run.status, String(run.stderr)).toBe(0)
  return String(run.stdout).trim()
}

/** Adds messages `from`..`to` from the demo teacher, titled "Paged 001"…, the later newer. */
function addMessages(from: number, to: number) {
  sqlite(`WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to})
    INSERT INTO notifications (id, created_at, updated_at, type, title, body, send_to_parent, send_to_pupil, filters, sender_id, school_id)
    SELECT 'paged-' || n, datetime('2030-01-01 09:00:00', n || ' minutes'), '2030-01-01 09:00:00', 'GENERAL',
           'Paged ' || printf('%03d', n), '<p>Hello.</p>', FALSE, TRUE, '{}', u.id, u.school_id
    FROM seq, users u WHERE u.email = '${USERS.teacher}';`)
}

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voicemark-e2e-activity-paging-'))
  server = await startVoicemark({ env: { VOICEMARK_DATA_DIR: dataDir } })
  addMessages(1, 45)
})

test.afterAll(async () => {
  await server?.stop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

async function signIn(page: Page, email: string = USERS.teacher) {
  const csrf = await page.request.get(`${server.baseURL}/api/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await page.request.post(`${server.baseURL}/api/auth/callback/credentials`, {
    form: { email, password: PASSWORD, csrfToken, callbackUrl: '/', json: 'true' },
  })
  const { url } = (await response.json()) as { url?: string }
  expect(url ?? '').not.toContain('error=')
}

const titles = (page: Page) =>
  page.getByRole('region', { name: 'Notifications' }).locator('tbody tr td:first-child a')

test('Next and Previous walk Activity newest first, and a new message does not shift the pages', async ({ page }) => {
  const total = Number(sqlite(`SELECT COUNT(*) FROM notifications WHERE sender_id = (SELECT id FROM users WHERE email = '${USERS.teacher}');`))
  const pages = Math.ceil(total / 20)
  expect(pages).toBeGreaterThanOrEqual(3)
  await signIn(page)
  await page.goto(`${server.baseURL}/notifications`)
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible()
  await expect(page.getByText(`Page 1 of ${pages}`)).toBeVisible()
  await expect(titles(page)).toHaveCount(20)
  await expect(titles(page).first()).toHaveText('Paged 045')
  await expect(titles(page).last()).toHaveText('Paged 026')
  await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled()

  // A message sent now is the newest; the next page still starts right after "Paged 026".
  addMessages(46, 46)
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible()
  await expect(titles(page).first()).toHaveText('Paged 025')
  await expect(titles(page).nth(19)).toHaveText('Paged 006')
  expect(await new AxeBuilder({ page }).analyze().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'))).toEqual([])

  await page.getByRole('button', { name: 'Previous' }).click()
  await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible()
  // The first page again (as kept, or read again with the new message on top).
  await expect(titles(page).first()).toHaveText(/^Paged 04[56]$/)
  await expect(titles(page).filter({ hasText: 'Paged 045' })).toHaveCount(1)

  // The search starts again from the first page.
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible()
  await page.getByLabel('Search by title').fill('Paged 00')
  await expect(titles(page)).toHaveCount(9)
  await expect(titles(page).first()).toHaveText('Paged 009')
  await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0)
})

test("Manage School's pupils page by 50 with Next and Previous, searched on the server", async ({ page }) => {
  sqlite(`WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 120)
    INSERT INTO students (id, created_at, updated_at, forename, surname, school_id)
    SELECT 'paged-p-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'Paged', 'Aardvark ' || printf('%03d', n),
           (SELECT id FROM schools WHERE name = 'Northbridge Academy') FROM seq;`)
  const total = Number(sqlite(`SELECT COUNT(*) FROM students WHERE archived_at IS NULL AND school_id = (SELECT id FROM schools WHERE name = 'Northbridge Academy');`))
  const pages = Math.ceil(total / 50)
  await signIn(page, USERS.admin)
  await page.goto(`${server.baseURL}/admin`)
  await expect(page.getByRole('heading', { level: 1, name: 'Manage School' })).toBeVisible()
  const names = page.getByRole('region', { name: 'Pupils' }).locator('tbody tr td:first-child')
  await expect(page.getByText(`Page 1 of ${pages}`)).toBeVisible()
  await expect(names).toHaveCount(50)
  await expect(names.first()).toHaveText('Paged Aardvark 001')
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText(`Page 2 of ${pages}`)).toBeVisible()
  await expect(names.first()).toHaveText('Paged Aardvark 051')
  await page.getByRole('button', { name: 'Previous' }).click()
  await expect(names.first()).toHaveText('Paged Aardvark 001')
  await page.getByRole('button', { name: 'Next' }).click()
  await page.getByLabel('Search pupils').fill('Aardvark 11')
  await expect(names).toHaveCount(10)
  await expect(names.first()).toHaveText('Paged Aardvark 110')
  await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0)
})
