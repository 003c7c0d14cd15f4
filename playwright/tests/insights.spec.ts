// Insights for leaders (issue 29 items 4 and 5), against a server of this file's own (it
// marks a demo submission, which the shared server's other specs would see): the admin marks
// one waiting hand-in of the demo's 'Persuasive letter' as negative, then /leaders/insights
// shows each chart as a figure with its table (the demo's numbers: 5 assigned, 5 handed in;
// turnaround median 24 h and 90th percentile 28 h over 3 marks; 1 positive, 1 neutral,
// 1 negative), the pupils to look at (the pupil marked negative, linking to their profile),
// and the profile shows the pupil's own charts. axe on both pages; no sideways scrolling at
// 360 px.
import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'

import { expect, navLabels, signIn, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile } from '../fixtures/smtp'
import { PASSWORD, USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

const servers = mailServersForFile(test)

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
}

/** The figure captioned `title` (its figcaption starts with the title). */
function figure(page: Page, title: string): Locator {
  return page.locator('figure').filter({ has: page.locator('figcaption', { hasText: title }) })
}

/** The numbers of column `column` of the figure's table, as numbers. */
async function column(fig: Locator, header: string): Promise<number[]> {
  const table = fig.getByRole('table')
  const headers = await table.locator('thead th').allTextContents()
  const index = headers.indexOf(header)
  expect(index, `${header} in ${headers.join(', ')}`).toBeGreaterThanOrEqual(0)
  const cells = await table.locator(`tbody tr td:nth-child(${index + 1})`).allTextContents()
  return cells.map(Number)
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)

function isoDay(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10)
}

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

test('Insights shows each chart with its table, the pupils to look at and the pupil profile view', async ({ page }) => {
  test.setTimeout(120_000)
  await page.goto('/login')
  await submitLogin(page, USERS.admin, PASSWORD)
  await expect(page).not.toHaveURL(/\/login/)

  // One waiting hand-in of the demo assignment, marked negative.
  const hub = await page.request.get(
    `/api/trpc/feedback.list?input=${encodeURIComponent(JSON.stringify({ json: { notificationId: null, classId: null } }))}`,
  )
  expect(hub.status(), await hub.text()).toBe(200)
  type Item = { submissionId: string; studentId: string; studentForename: string; studentSurname: string }
  const items = ((await hub.json()) as { result: { data: { json: { items: Item[] } } } }).result.data.json.items
  expect(items.length).toBe(3)
  const item = items[0]
  const marked = await page.request.post('/api/trpc/feedback.mark', {
    data: { json: { submissionId: item.submissionId, feedback: 'The letter has no argument yet.', sentiment: 'NEGATIVE' } },
  })
  expect(marked.status(), await marked.text()).toBe(200)
  const pupilName = `${item.studentForename} ${item.studentSurname}`

  // The navigation: Insights right after Report generator.
  await page.goto('/leaders/tasks')
  const nav = page.getByRole('navigation', { name: 'Leaders', exact: true })
  await expect(nav.getByRole('link', { name: 'Insights' })).toBeVisible()
  const links = await navLabels(page, 'Leaders')
  expect(links[links.indexOf('Report generator') + 1]).toBe('Insights')
  await nav.getByRole('link', { name: 'Insights' }).click()
  await expect(page).toHaveURL(/\/leaders\/insights$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible()
  await expect(page.getByText('The whole school.')).toBeVisible()
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(isoDay(-83))
  // The demo assignment is due in four days: look two weeks ahead.
  await page.getByLabel('To', { exact: true }).fill(isoDay(14))

  const handIn = figure(page, 'Hand-in rate')
  await expect(handIn.getByRole('table')).toBeVisible()
  await expect.poll(() => column(handIn, 'Assigned').then(sum)).toBe(5)
  expect(sum(await column(handIn, 'Handed in'))).toBe(5)
  expect(sum(await column(handIn, 'On time'))).toBe(5)
  expect(await column(handIn, 'Hand-in rate (%)')).toEqual([100])

  const turnaround = figure(page, 'Marking turnaround')
  const teacherRow = turnaround.getByRole('row').filter({ hasText: /^Teacher: / })
  await expect(teacherRow).toHaveCount(1)
  await expect(teacherRow.getByRole('cell')).toHaveText([/^Teacher: /, '3', '24', '28'])
  const classRow = turnaround.getByRole('row').filter({ hasText: 'Class: Year 7 English' })
  await expect(classRow.getByRole('cell')).toHaveText(['Class: Year 7 English', '3', '24', '28'])

  const sentiment = figure(page, 'Feedback sentiment')
  expect(sum(await column(sentiment, 'Positive'))).toBe(1)
  expect(sum(await column(sentiment, 'Neutral'))).toBe(1)
  expect(sum(await column(sentiment, 'Negative'))).toBe(1)

  const reached = figure(page, 'Parents reached')
  await expect(reached.locator('figcaption')).toContainText('Parents reached')
  for (const title of ['Hand-in rate', 'Marking turnaround', 'Feedback sentiment', 'Parents reached']) {
    await expect(figure(page, title).getByRole('button', { name: `Download CSV: ${title}` })).toBeVisible()
  }
  const download = page.waitForEvent('download')
  await figure(page, 'Hand-in rate').getByRole('button', { name: 'Download CSV: Hand-in rate' }).click()
  expect((await download).suggestedFilename()).toBe('hand-in-rate.csv')

  const pupils = page.getByRole('table', { name: 'Pupils to look at' })
  const row = pupils.getByRole('row').filter({ hasText: pupilName })
  await expect(row).toContainText('Only negative feedback in the last four weeks (1)')
  expect(await seriousViolations(page)).toEqual([])

  await page.setViewportSize({ width: 360, height: 800 })
  await expect(handIn.getByRole('table')).toBeAttached()
  await noSidewaysScroll(page)

  // The pupil's profile: their own hand-ins and feedback.
  await page.setViewportSize({ width: 1280, height: 900 })
  await row.getByRole('link', { name: pupilName }).click()
  await expect(page).toHaveURL(new RegExp(`/students/${item.studentId}$`))
  await expect(page.getByRole('heading', { level: 1, name: pupilName })).toBeVisible()
  const charts = page.getByRole('region', { name: 'Insights' })
  await expect(charts.locator('figcaption', { hasText: 'Hand-ins' })).toBeVisible()
  const own = figure(page, 'Feedback sentiment')
  await expect.poll(() => column(own, 'Negative').then(sum)).toBe(1)
  expect(sum(await column(own, 'Positive'))).toBe(0)
  await expect(figure(page, 'Marking turnaround').getByRole('table')).toBeAttached()
  expect(await seriousViolations(page)).toEqual([])
  await page.setViewportSize({ width: 360, height: 800 })
  await noSidewaysScroll(page)
})

test('Insights for a trust say when they were worked out, and for a school do not', async ({ page }) => {
  await signIn(page, 'matUser')
  await page.goto('/leaders/insights')
  await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible()
  await expect(page.getByText('Every school of your trust; choose one to look at it alone.')).toBeVisible()
  const note = page.getByText(/^These figures cover many schools, so they are worked out about once a minute/)
  await expect(note).toBeVisible()
  const shown = await note.locator('time').textContent()
  expect(shown).toMatch(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/)
  const at = new Date((await note.locator('time').getAttribute('datetime')) ?? '')
  expect(Math.abs(Date.now() - at.getTime())).toBeLessThan(5 * 60_000)
  // The whole trust's turnaround is per school.
  const turnaround = figure(page, 'Marking turnaround')
  await expect(turnaround.getByRole('table')).toBeVisible()
  await expect(turnaround.locator('figcaption')).toContainText('per school. Choose a school to see its teachers and classes.')
  await expect(turnaround.getByRole('row').filter({ hasText: /^School: Northbridge/ })).toHaveCount(1)
  await expect(turnaround.getByRole('row').filter({ hasText: /^(Class|Teacher): / })).toHaveCount(0)
  expect(await seriousViolations(page)).toEqual([])

  // A trust's classes are those of the school chosen: 50 schools' would be one long list of
  // the same names.
  await expect(page.getByText('Choose a school to look at one year group, form group, class or teacher.')).toBeVisible()
  await expect(page.getByLabel('Class', { exact: true })).toHaveCount(0)
  const school = page.getByLabel('School', { exact: true })
  const northbridge = school.locator('option', { hasText: 'Northbridge' })
  await school.selectOption({ label: (await northbridge.first().textContent()) ?? '' })
  await expect(page.getByLabel('Class', { exact: true }).locator('option', { hasText: 'Year 7 English' })).toHaveCount(1)
  await expect(page.getByText('Choose a school to look at one year group, form group, class or teacher.')).toHaveCount(0)
  // Chosen: its teachers and classes.
  await expect(turnaround.getByRole('row').filter({ hasText: 'Class: Year 7 English' })).toHaveCount(1)
  await expect(turnaround.getByRole('row').filter({ hasText: /^School: / })).toHaveCount(0)
  await school.selectOption({ label: 'All schools' })
  await expect(page.getByLabel('Class', { exact: true })).toHaveCount(0)

  // Asked again within the minute: the same figures, worked out at the same moment.
  await page.reload()
  await expect(note.locator('time')).toHaveAttribute('datetime', at.toISOString())
  await page.setViewportSize({ width: 360, height: 800 })
  await expect(note).toBeVisible()
  await noSidewaysScroll(page)

  // A school's figures are worked out each time: no such note.
  await page.context().clearCookies()
  await signIn(page, 'admin')
  await page.goto('/leaders/insights')
  await expect(page.getByText('The whole school.')).toBeVisible()
  await expect(figure(page, 'Marking turnaround').getByRole('table')).toBeVisible()
  await expect(page.getByText(/worked out about once a minute/)).toHaveCount(0)
})

test("a trust's figures kept by a stopped process show at once in a new one, and newer figures replace them by themselves", async ({
  page,
}, testInfo) => {
  const { server } = await servers()
  await signIn(page, 'matUser')
  await page.goto('/leaders/insights')
  const note = page.getByText(/^These figures cover many schools, so they are worked out about once a minute/)
  await expect(note).toBeVisible()
  const coming = 'Newer figures are being worked out, and will show here by themselves in a few seconds.'
  await expect(note).not.toContainText(coming)
  const iso = (await note.locator('time').getAttribute('datetime')) ?? ''
  expect(iso).not.toBe('')

  // As if those figures had been worked out ten minutes ago, by a process that has stopped
  // since: the new process holds nothing, the database keeps the answer.
  const earlier = new Date(new Date(iso).getTime() - 10 * 60_000)
  const aged = testInfo.project.name === 'postgres' ? "worked_out_at - interval '10 minutes'" : "datetime(worked_out_at, '-10 minutes')"
  server.sql(`UPDATE insight_answers SET worked_out_at = ${aged}, body = replace(body, '${iso}', '${earlier.toISOString()}')`)
  await server.restart()
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible()
  // At once: the kept figures, with when they were worked out, and that newer ones are coming.
  await expect(note.locator('time')).toHaveAttribute('datetime', earlier.toISOString())
  await expect(note).toContainText(coming)
  expect(await seriousViolations(page)).toEqual([])
  // Then the newer figures, without a reload.
  await expect(note).not.toContainText(coming, { timeout: 20_000 })
  const now = new Date((await note.locator('time').getAttribute('datetime')) ?? '')
  expect(now.getTime()).toBeGreaterThanOrEqual(new Date(iso).getTime())
  await expect(figure(page, 'Marking turnaround').getByRole('table')).toBeVisible()
})
