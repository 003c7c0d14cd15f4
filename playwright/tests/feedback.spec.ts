// The teacher's side of the loop on the demo data: the Feedback Hub lists the three
// waiting "Persuasive letter" submissions oldest first; marking one POSITIVE drops the
// badge to 2 and the pupil's profile timeline shows the feedback. Serial: it changes the
// demo's state, and the count it checks first is the seeded one.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'

test.describe.configure({ mode: 'serial' })

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
}

test('the Feedback Hub lists the waiting work oldest first and has no serious violation', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/feedback')
  await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
  const items = page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem')
  await expect(items).toHaveText([/Isla Walker/, /George Johnson/, /Ava Roberts/])
  await expect(items.first()).toContainText('Persuasive letter')
  await expect(page.getByTestId('feedback-badge')).toContainText('3')
  expect(await seriousViolations(page)).toEqual([])
})

test('marking one POSITIVE lowers the badge and shows on the pupil profile', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/feedback')
  const items = page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem')
  await expect(items).toHaveCount(3)
  await items.filter({ hasText: 'Isla Walker' }).getByRole('button').click()
  await expect(page.getByRole('heading', { level: 2, name: 'Isla Walker: Persuasive letter' })).toBeVisible()
  const profile = page.getByRole('link', { name: "View Isla Walker's profile" })
  const href = await profile.getAttribute('href')
  expect(href).toMatch(/^\/students\/[\w-]+$/)

  // Empty feedback is refused in the browser first.
  await page.getByRole('button', { name: 'Mark', exact: true }).click()
  await expect(page.getByText('Write your feedback.')).toBeVisible()

  await page.getByLabel('Feedback', { exact: true }).fill('A persuasive, well-organised letter. Well done!')
  await page.getByRole('radio', { name: 'Positive' }).check()
  await page.getByRole('button', { name: 'Mark', exact: true }).click()
  await expect(page.getByText('Feedback saved.', { exact: true })).toBeVisible()
  await expect(items).toHaveText([/George Johnson/, /Ava Roberts/])
  await expect(page.getByTestId('feedback-badge')).toContainText('2')

  await page.goto(href ?? '/')
  await expect(page.getByRole('heading', { level: 1, name: 'Isla Walker' })).toBeVisible()
  const timeline = page.getByRole('list', { name: 'Submissions and feedback' })
  await expect(timeline.getByRole('listitem').first()).toContainText('Persuasive letter')
  await expect(timeline.getByRole('listitem').first()).toContainText('Positive')
  await expect(timeline.getByRole('listitem').first()).toContainText('A persuasive, well-organised letter. Well done!')
})

test('the dashboard shows what there is to mark, due and scheduled', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/')
  const toMark = page.getByRole('region', { name: 'To mark' })
  await expect(toMark).toContainText(/\d+ submissions? waits? for feedback/)
  await expect(toMark.getByRole('link', { name: 'Open the Feedback Hub' })).toHaveAttribute('href', '/feedback')
  await expect(page.getByRole('region', { name: 'Due in the next 7 days' })).toContainText('Persuasive letter')
  await expect(page.getByRole('region', { name: 'Scheduled' })).toContainText('Poetry reading log')
})

test("a teacher's dashboard, with its lists filled, has no serious or critical violation", async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/')
  await expect(page.getByRole('region', { name: 'To mark' }).getByRole('listitem').first()).toBeVisible()
  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
})
