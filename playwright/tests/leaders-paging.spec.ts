// Tasks and voice notes a page at a time after a stable cursor (issue 30, docs/scaling.md
// "Paged lists"), on a server of this file's own with 60 more tasks and 55 more voice notes
// for the demo admin: "Show more tasks" / "Show more voice notes" (also in a task's voice-note
// picker and the report generator's pickers) load the next page, newest
// first, a row added meanwhile does not shift the next page, and the list fits a 360 px screen.
// The server talks to the stub chat model (fixtures/ports.ts), so a report can be generated
// from a task of the picker's second page.
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

import { VISION_URL } from '../fixtures/ports'
import { startVoicemark, type Voicemark } from '../fixtures/smtp'
import { PASSWORD, USERS } from '../fixtures/users'

let server: Voicemark

const ADMIN = `(SELECT id FROM users WHERE email = '${USERS.admin}')`
const SCHOOL = `(SELECT school_id FROM users WHERE email = '${USERS.admin}')`

/** Adds the admin's tasks `from`..`to`, "Paged task 001"…, each changed a minute after the one before (in 2030: newer than any of the demo's). */
function addTasks(from: number, to: number) {
  server.sql(`WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to})
    INSERT INTO task_submissions (id, created_at, updated_at, draft, title, tags, task_id, user_id, school_id)
    SELECT 'paged-task-' || n, '2030-01-01 09:00:00', datetime('2030-01-01 09:00:00', n || ' minutes'), TRUE,
           'Paged task ' || printf('%03d', n), '["Paged"]', 'paged-template', ${ADMIN}, ${SCHOOL} FROM seq;`)
}

/** Adds the admin's voice notes `from`..`to`, "Paged note 001.m4a"…, each a minute newer. */
function addNotes(from: number, to: number) {
  server.sql(`WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to})
    INSERT INTO stored_files (id, key, school_id, user_id, filename, content_type, size_bytes, uploaded_at, created_at, kind, in_personal_folder)
    SELECT 'paged-note-' || n, 'paged/voice-notes/' || n || '.m4a', ${SCHOOL}, ${ADMIN}, 'Paged note ' || printf('%03d', n) || '.m4a',
           'audio/mp4', 2048, '2030-01-01 09:00:00', datetime('2030-01-01 09:00:00', n || ' minutes'), 'VOICE_NOTE', TRUE FROM seq;`)
}

test.beforeAll(async () => {
  server = await startVoicemark({
    env: {
      VOICEMARK_VISION_BASE_URL: `${VISION_URL}/v1`,
      VOICEMARK_VISION_MODEL: 'stub-vision',
      VOICEMARK_VISION_API_KEY: 'stub-vision-key',
    },
  })
  server.sql(`INSERT INTO tasks (id, created_at, updated_at, title, visibility, tags, user_id, school_id)
    VALUES ('paged-template', '2030-01-01 09:00:00', '2030-01-01 09:00:00', 'Paged template', 'PERSONAL', '[]', ${ADMIN}, ${SCHOOL});`)
  addTasks(1, 60)
  addNotes(1, 55)
})

test.afterAll(async () => {
  await server?.stop()
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
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)
}

test('the Tasks page shows 50 tasks, newest change first, then the rest with "Show more tasks"', async ({ page }) => {
  const total = Number(server.sql(`SELECT COUNT(*) FROM task_submissions WHERE user_id = ${ADMIN};`))
  expect(total).toBe(60)
  await signIn(page)
  await page.goto(`${server.baseURL}/leaders/tasks`)
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible()
  const titles = page.getByRole('table', { name: 'Tasks' }).locator('tbody tr td:first-child a')
  await expect(titles).toHaveCount(50)
  await expect(titles.first()).toHaveText('Paged task 060')
  await expect(titles.nth(49)).toHaveText('Paged task 011')
  await expect(page.getByText(`Showing 50 of ${total} tasks`)).toBeVisible()
  // Every tag of the admin's tasks is offered, not only those of the page shown.
  await expect(page.getByLabel('Tag').locator('option', { hasText: 'Paged' })).toHaveCount(1)

  // A task started now is the newest; the next page still starts right after "Paged task 011".
  addTasks(61, 61)
  await page.getByRole('button', { name: 'Show more tasks' }).click()
  await expect(titles).toHaveCount(total)
  await expect(titles.nth(50)).toHaveText('Paged task 010')
  await expect(titles.filter({ hasText: 'Paged task 011' })).toHaveCount(1)
  await expect(page.getByText(`${total} tasks`, { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Show more tasks' })).toHaveCount(0)
  expect(await seriousViolations(page)).toEqual([])

  // The filters run on the server: a search reaches beyond the pages loaded.
  await page.getByLabel('Search tasks').fill('Paged task 00')
  await expect(titles).toHaveCount(9)
  await expect(titles.first()).toHaveText('Paged task 009')
  await expect(page.getByRole('button', { name: 'Show more tasks' })).toHaveCount(0)

  // On a phone the list and its count fit the screen (the pages loaded before come back,
  // as kept or read again with the task started meanwhile on top).
  await page.setViewportSize({ width: 360, height: 800 })
  await page.getByLabel('Search tasks').fill('')
  await expect(titles.first()).toHaveText(/^Paged task 06[01]$/)
  await expect(page.getByText(/^6[01] tasks$/)).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
})

test('voice notes come 20 at a time, newest first, with "Show more voice notes"', async ({ page }) => {
  const total = Number(server.sql(`SELECT COUNT(*) FROM stored_files WHERE user_id = ${ADMIN} AND kind = 'VOICE_NOTE' AND in_personal_folder;`))
  expect(total).toBeGreaterThan(40)
  expect(total).toBeLessThanOrEqual(60)
  await signIn(page)
  await page.goto(`${server.baseURL}/leaders/voice-notes`)
  await expect(page.getByRole('heading', { level: 1, name: 'Voice notes' })).toBeVisible()
  const notes = page.getByRole('list', { name: 'Your voice notes' }).getByRole('listitem')
  await expect(notes).toHaveCount(20)
  await expect(notes.first()).toHaveAccessibleName('Paged note 055.m4a')
  await expect(notes.nth(19)).toHaveAccessibleName('Paged note 036.m4a')
  await expect(page.getByText(`Showing 20 of ${total} voice notes`)).toBeVisible()

  const more = page.getByRole('button', { name: 'Show more voice notes' })
  await more.click()
  await expect(notes).toHaveCount(40)
  await expect(notes.nth(20)).toHaveAccessibleName('Paged note 035.m4a')
  await expect(page.getByText(`Showing 40 of ${total} voice notes`)).toBeVisible()
  await more.click()
  await expect(notes).toHaveCount(total)
  await expect(notes.nth(54)).toHaveAccessibleName('Paged note 001.m4a')
  await expect(page.getByText(`${total} voice notes`, { exact: true })).toBeVisible()
  await expect(more).toHaveCount(0)
  expect(await seriousViolations(page)).toEqual([])

  await page.setViewportSize({ width: 360, height: 800 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
})

test('a task\'s "Pull in voice notes" lists 50, then the rest with "Show more voice notes"', async ({ page }) => {
  const total = Number(server.sql(`SELECT COUNT(*) FROM stored_files WHERE user_id = ${ADMIN} AND kind = 'VOICE_NOTE' AND in_personal_folder;`))
  expect(total).toBeGreaterThan(50)
  await signIn(page)
  // A new task of the admin's (the 60 added ones count as older than a week, so the Basic
  // plan's weekly limit lets one more start).
  server.sql(`UPDATE task_submissions SET created_at = '2020-01-01 09:00:00' WHERE id LIKE 'paged-task-%';`)
  await page.goto(`${server.baseURL}/leaders/tasks/create`)
  await page.getByLabel('Title').fill('Picker check')
  await page.getByRole('radio', { name: /Lesson observation/ }).check()
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Picker check' })).toBeVisible()
  await page.getByRole('button', { name: 'Pull in voice notes' }).click()
  const dialog = page.getByRole('dialog', { name: 'Pull in voice notes' })
  const boxes = dialog.getByRole('checkbox')
  await expect(boxes).toHaveCount(50)
  await expect(dialog.getByText(`Showing 50 of ${total} voice notes`)).toBeVisible()
  await dialog.getByRole('button', { name: 'Show more voice notes' }).click()
  await expect(boxes).toHaveCount(total)
  await expect(dialog.getByRole('button', { name: 'Show more voice notes' })).toHaveCount(0)
  // One from the second page is pulled in.
  await dialog.getByRole('checkbox', { name: /Paged note 001\.m4a/ }).check()
  await dialog.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.getByText('Voice note added', { exact: true })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Task content' })).toContainText('Paged note 001.m4a')
  expect(await seriousViolations(page)).toEqual([])
})

test('the report generator\'s pickers page too, and a task chosen from page 2 stays chosen and is reported on', async ({ page }) => {
  const total = Number(server.sql(`SELECT COUNT(*) FROM task_submissions WHERE user_id = ${ADMIN};`))
  expect(total).toBeGreaterThan(50)
  expect(total).toBeLessThanOrEqual(100)
  const notes = Number(
    server.sql(`SELECT COUNT(*) FROM stored_files WHERE user_id = ${ADMIN} AND kind = 'VOICE_NOTE' AND uploaded_at IS NOT NULL;`),
  )
  expect(notes).toBeGreaterThan(40)
  await signIn(page)
  await page.goto(`${server.baseURL}/leaders/report-generator`)
  await expect(page.getByRole('heading', { level: 1, name: 'Report generator' })).toBeVisible()
  const tasks = page.getByRole('list', { name: 'Tasks to report on' }).getByRole('checkbox')
  await expect(tasks).toHaveCount(50)
  await expect(page.getByText(`Showing 50 of ${total} tasks`)).toBeVisible()
  const fromPageTwo = page.getByRole('checkbox', { name: /^Paged task 005\b/ })
  await expect(fromPageTwo).toHaveCount(0)

  // "Show more tasks" loads the rest (it is not the form's submit: nothing is generated).
  await page.getByRole('button', { name: 'Show more tasks' }).click()
  await expect(tasks).toHaveCount(total)
  await expect(page.getByText(`${total} tasks`, { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Show more tasks' })).toHaveCount(0)
  await expect(page.getByLabel('Report text')).toHaveValue('')
  await fromPageTwo.check()
  await page.getByRole('checkbox', { name: /^Paged task 050\b/ }).check()
  await expect(page.getByText('2 of at most 50 tasks chosen')).toBeVisible()

  // A search runs on the server, from the first page; the choice stays, also once the search is
  // cleared.
  await page.getByLabel('Search tasks').fill('Paged task 00')
  await expect(tasks).toHaveCount(9)
  await expect(fromPageTwo).toBeChecked()
  await expect(page.getByRole('button', { name: 'Show more tasks' })).toHaveCount(0)
  await page.getByLabel('Search tasks').fill('')
  await expect(tasks.first()).not.toHaveAccessibleName(/^Paged task 00/)
  await expect(fromPageTwo).toBeChecked()
  await expect(page.getByText('2 of at most 50 tasks chosen')).toBeVisible()

  // The voice notes: 20, then 20 more.
  const voiceNotes = page.getByRole('list', { name: 'Voice notes to add' }).getByRole('listitem')
  await expect(voiceNotes).toHaveCount(20)
  await expect(page.getByText(`Showing 20 of ${notes} voice notes`)).toBeVisible()
  await page.getByRole('button', { name: 'Show more voice notes' }).click()
  await expect(voiceNotes).toHaveCount(40)
  await expect(voiceNotes.nth(20)).toContainText('Paged note 035.m4a')
  expect(await seriousViolations(page)).toEqual([])

  await page.setViewportSize({ width: 360, height: 800 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  // The report is written from both tasks, the one from page 2 first (the order chosen).
  await page.getByLabel('Instructions', { exact: true }).fill('A summary for governors.')
  await page.getByLabel('Title', { exact: true }).fill('Paged review')
  await page.locator('[data-tour="report-form"]').getByRole('button', { name: 'Generate' }).click()
  await expect(page.getByLabel('Report text')).toHaveValue(
    /^# Paged review\n\n## Sources\n\n- Task: Paged task 005\n- Task: Paged task 050\n/,
    { timeout: 20_000 },
  )
  await expect(fromPageTwo).toBeChecked()
  await expect(page.getByText('2 of at most 50 tasks chosen')).toBeVisible()
})
