// Activity and Manage School's pupils and staff a page at a time after a stable cursor (issue
// 30, docs/scaling.md "Paged lists"), on a server of this file's own with 45 more messages from
// the demo teacher, 120 more pupils, 60 more staff and 730 more hand-ins: Next and Previous
// walk the pages, "Show more" extends the Hub's lists, and a message sent
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

test("Manage School's staff page by 50 with Next and Previous, searched on the server", async ({ page }) => {
  sqlite(`WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 60)
    INSERT INTO users (id, created_at, updated_at, forename, surname, email, activated, school_id, role)
    SELECT 'paged-s-' || n, '2026-11-01 10:00:00', '2026-11-01 10:00:00', 'Paged', 'Aaronson ' || printf('%03d', n),
           'paged-s-' || n || '@northbridge.test', TRUE,
           (SELECT id FROM schools WHERE name = 'Northbridge Academy'), 'TEACHER' FROM seq;`)
  const total = Number(sqlite(`SELECT COUNT(*) FROM users WHERE school_id = (SELECT id FROM schools WHERE name = 'Northbridge Academy');`))
  const pages = Math.ceil(total / 50)
  expect(pages).toBeGreaterThan(1)
  await signIn(page, USERS.admin)
  await page.goto(`${server.baseURL}/admin/staff`)
  await expect(page.getByRole('heading', { level: 1, name: 'Manage School' })).toBeVisible()
  const names = page.getByRole('region', { name: 'Staff' }).locator('tbody tr td:first-child')
  await expect(page.getByRole('status').filter({ hasText: `${total} members of staff` })).toBeVisible()
  await expect(page.getByText(`Page 1 of ${pages}`)).toBeVisible()
  await expect(names).toHaveCount(50)
  await expect(names.first()).toHaveText('Paged Aaronson 001')
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page.getByText(`Page 2 of ${pages}`)).toBeVisible()
  await expect(names.first()).toHaveText('Paged Aaronson 051')
  await page.getByRole('button', { name: 'Previous' }).click()
  await expect(names.first()).toHaveText('Paged Aaronson 001')
  // A search reaches past the page shown, by name or e-mail, and starts from its first page.
  await page.getByRole('button', { name: 'Next' }).click()
  await page.getByLabel('Search staff').fill('aaronson 05')
  await expect(names).toHaveCount(10)
  await expect(names.first()).toHaveText('Paged Aaronson 050')
  await expect(page.getByRole('button', { name: 'Next' })).toHaveCount(0)
  await page.getByLabel('Search staff').fill('paged-s-7@northbridge')
  await expect(names).toHaveText(['Paged Aaronson 007'])
  const axe = await new AxeBuilder({ page }).include('main').analyze()
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
  await page.setViewportSize({ width: 360, height: 740 })
  await expect(page.getByLabel('Search staff')).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
})

test("the Feedback Hub's lists show 500 waiting and 200 marked, and Show more adds the next", async ({ page }) => {
  // 730 rows drawn, marked and checked by axe: more than the default 30 s on a busy CI machine.
  test.setTimeout(90_000)
  // 520 hand-ins older than any of the demo's (so they come first) and 210 marks older than
  // its marks (so they come last), on one of the demo teacher's assignments.
  const assignment = `(SELECT n.id FROM notifications n JOIN users u ON u.id = n.sender_id
    WHERE u.email = '${USERS.teacher}' AND n.type = 'ASSIGNMENT' ORDER BY n.id LIMIT 1)`
  // One hand-in a pupil, as sending makes them: 730 pupils of the teacher's school.
  sqlite(`WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 730)
    INSERT INTO students (id, created_at, updated_at, forename, surname, school_id)
    SELECT 'hub-pupil-' || n, '2026-01-01 09:00:00', '2026-01-01 09:00:00', 'Hub', 'Zed ' || printf('%03d', n),
           (SELECT school_id FROM users WHERE email = '${USERS.teacher}') FROM seq;`)
  sqlite(`WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 730)
    INSERT INTO submissions (id, created_at, updated_at, received_at, marked_at, content, feedback, feedback_sentiment,
                             feedback_released_at, token, notification_id, student_id)
    SELECT 'hub-paged-' || n, '2026-01-01 09:00:00', '2026-01-01 09:00:00',
           datetime('2026-01-01 10:00:00', n || ' seconds'),
           CASE WHEN n > 520 THEN datetime('2026-01-02 10:00:00', n || ' seconds') END,
           'Paged hand-in ' || n,
           CASE WHEN n > 520 THEN 'Paged feedback ' || n END,
           CASE WHEN n > 520 THEN 'POSITIVE' END,
           CASE WHEN n > 520 THEN datetime('2026-01-02 10:00:00', n || ' seconds') END,
           'hub-paged-token-' || n, ${assignment}, 'hub-pupil-' || n
    FROM seq;`)
  const count = (marked: boolean) =>
    Number(
      sqlite(`SELECT COUNT(*) FROM submissions s JOIN notifications n ON n.id = s.notification_id JOIN users u ON u.id = n.sender_id
        WHERE u.email = '${USERS.teacher}' AND s.received_at IS NOT NULL AND s.marked_at IS ${marked ? 'NOT ' : ''}NULL;`),
    )
  const [waiting, marked] = [count(false), count(true)]
  expect(waiting).toBeGreaterThan(520)
  expect(marked).toBeGreaterThan(210)
  await signIn(page)
  await page.goto(`${server.baseURL}/feedback`)
  await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: `Waiting (${waiting})` })).toBeVisible()
  const rows = page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem')
  await expect(rows).toHaveCount(500)
  await expect(page.getByText(`Showing 500 of ${waiting} submissions`)).toBeVisible()
  await page.getByRole('button', { name: 'Show more submissions' }).click()
  await expect(rows).toHaveCount(waiting)
  await expect(page.getByText(`${waiting} submissions`, { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Show more submissions' })).toHaveCount(0)

  await expect(page.getByRole('heading', { level: 2, name: `Marked (${marked})` })).toBeVisible()
  const markedRows = page.getByRole('list', { name: 'Marked submissions' }).getByRole('listitem')
  await expect(markedRows).toHaveCount(200)
  await page.getByRole('button', { name: 'Show more marked submissions' }).click()
  await expect(markedRows).toHaveCount(marked)
  await expect(page.getByRole('button', { name: 'Show more marked submissions' })).toHaveCount(0)

  // Marking one from the second page keeps the pages loaded, and the count goes down by one.
  await rows.last().getByRole('button').click()
  await page.getByLabel('Feedback', { exact: true }).fill('A clear argument, well paced.')
  await page.getByRole('button', { name: 'Mark', exact: true }).click()
  await expect(page.getByRole('heading', { level: 2, name: `Waiting (${waiting - 1})` })).toBeVisible()
  await expect(rows).toHaveCount(waiting - 1)
  const axe = await new AxeBuilder({ page }).include('main').analyze()
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
})
