// The notification editor and Activity: a teacher schedules an assignment to a class, sees
// the live recipient count, then finds it as scheduled in Activity with that count; the
// server's validation messages appear on their fields; axe finds no serious violation.
import AxeBuilder from '@axe-core/playwright'

import { expect, test } from '../fixtures/auth'

/** `datetime-local` text for now + `days` (in the browser's and this process's time zone). */
function localInput(days: number): string {
  const d = new Date(Date.now() + days * 86_400_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

test('a teacher schedules an assignment to a class and sees it in Activity', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/notifications/create?type=ASSIGNMENT')
  await expect(page.getByRole('heading', { level: 1, name: 'New assignment' })).toBeVisible()
  const title = `Poetry ${Date.now().toString(36)}`
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.type('Read three poems and write a reflection.')
  await page.getByLabel('Send date').fill(localInput(1))
  await page.getByLabel('Due date').fill(localInput(5))
  await expect(page.getByText('0 pupils will receive this.')).toBeVisible()
  await page.getByRole('checkbox', { name: /Year 7 English/ }).check()
  await expect(page.getByText('20 pupils will receive this.')).toBeVisible()
  await page.getByRole('button', { name: 'Send assignment' }).click()

  await expect(page).toHaveURL(/\/notifications\/[^/]+\/details$/)
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  // The Dashboard item is active on the view page.
  await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page')

  // While scheduled it can be edited.
  await page.getByRole('link', { name: 'Edit', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Edit assignment' })).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Message' })).toContainText('Read three poems')
  await page.getByLabel('Title', { exact: true }).fill(`${title} (revised)`)
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByRole('heading', { level: 1, name: `${title} (revised)` })).toBeVisible()
  await page.getByRole('link', { name: 'Recipients' }).click()
  await expect(page.getByRole('row')).toHaveCount(21)

  await page.getByRole('link', { name: 'Activity' }).click()
  await page.getByLabel('Search by title').fill(title)
  const row = page.getByRole('row', { name: new RegExp(title) })
  await expect(row).toBeVisible()
  await expect(row.getByRole('cell').nth(2)).toHaveText('Scheduled')
  await expect(row.getByRole('cell').nth(5)).toHaveText('20')
})

test('the editor shows the server validation messages', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/notifications/create?type=ASSIGNMENT')
  await page.getByLabel('Title', { exact: true }).fill('Needs fixing')
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.type('Body')
  await page.getByLabel('Send date').fill(localInput(3))
  await page.getByLabel('Due date').fill(localInput(2))
  await page.getByLabel('Pupils', { exact: true }).uncheck()
  await page.getByLabel('Parents', { exact: true }).uncheck()
  await page.getByRole('button', { name: 'Send assignment' }).click()
  await expect(page.getByText('The due date must be after the send date.')).toBeVisible()
  await expect(page.getByText('Choose pupils, parents or both.')).toBeVisible()
  await expect(page.getByText('Choose at least one recipient.')).toBeVisible()
  await expect(page.getByLabel('Due date')).toHaveAttribute('aria-invalid', 'true')
})

test('the notification editor has no serious or critical violation', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/notifications/create?type=GENERAL')
  await expect(page.getByRole('heading', { level: 1, name: 'New message' })).toBeVisible()
  await expect(page.getByRole('checkbox', { name: /Year 7 English/ })).toBeVisible()
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
  expect(serious).toEqual([])
})

test("a message sent at once shows when it was sent, not 'On saving'", async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/notifications/create?type=GENERAL')
  await expect(page.getByRole('heading', { level: 1, name: 'New message' })).toBeVisible()
  const title = `Trip ${Date.now().toString(36)}`
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.type('The coach leaves at nine.')
  await page.getByRole('checkbox', { name: /Year 7 English/ }).check()
  await page.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  const sendDate = page.locator('dl > div').filter({ hasText: 'Send date' })
  await expect(sendDate.locator('dd')).toHaveText(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/)
  await expect(sendDate).not.toContainText('On saving')
})

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('the Activity table becomes cards: neither the page nor the frame scrolls sideways', async ({ page, signIn }) => {
    await signIn('teacher')
    await page.goto('/notifications')
    await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible()
    const table = page.getByRole('table', { name: 'Notifications' })
    await expect(table).toBeVisible()
    const frame = page.getByRole('region', { name: 'Notifications' })
    const box = (await frame.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(390)
    // Neither the page, its main column nor the table's frame scrolls sideways: each row is
    // a card (components/data-table.tsx, docs/interface.md).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await page.getByRole('main').evaluate((main) => main.scrollWidth - main.clientWidth)).toBeLessThanOrEqual(0)
    expect(await frame.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
  })
})
