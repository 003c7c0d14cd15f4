// Forms refuse what the server would refuse, before sending (issue 26, item 7): a title
// longer than the server's 200 characters shows the server's message under the field and no
// call goes out; every field's message shows at once on submit, each a sentence.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'

/** Counts the calls to `procedure` the page makes from now on. */
function countCalls(page: Page, procedure: string): () => number {
  let calls = 0
  page.on('request', (request) => {
    if (request.url().includes('/api/trpc/') && decodeURIComponent(request.url()).includes(procedure)) calls++
  })
  return () => calls
}

test('the New task form refuses a 300-character title before sending, with every message at once', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/leaders/tasks/create')
  await expect(page.getByRole('heading', { level: 1, name: 'New task' })).toBeVisible()
  await expect(page.getByRole('radio').first()).toBeVisible()
  const creates = countCalls(page, 'task.create')

  const title = page.getByLabel('Title')
  await title.fill('A'.repeat(300))
  await page.getByRole('button', { name: 'Create' }).click()

  // Both problems at once: the title's length and the missing template.
  await expect(page.getByText('Use at most 200 characters.')).toBeVisible()
  await expect(page.getByText('Choose a template.')).toBeVisible()
  await expect(title).toHaveAttribute('aria-invalid', 'true')
  await expect(title).toHaveAccessibleDescription('Use at most 200 characters.')
  await expect(page).toHaveURL('/leaders/tasks/create')
  expect(creates()).toBe(0)

  // 200 characters is within the limit: the title's message goes, the template's stays.
  await title.fill('A'.repeat(200))
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByText('Use at most 200 characters.')).toHaveCount(0)
  await expect(page.getByText('Choose a template.')).toBeVisible()
  expect(creates()).toBe(0)

  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
})

test('the message editor shows the title and custom title errors together, and sends nothing', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/notifications/create?type=GENERAL')
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible()
  const sends = countCalls(page, 'notification.create')

  await page.getByLabel('Title', { exact: true }).fill('T'.repeat(300))
  await page.getByLabel('Custom title').fill('C'.repeat(201))
  await page.getByRole('button', { name: 'Send message' }).click()

  const errors = page.getByText('Use at most 200 characters.')
  await expect(errors).toHaveCount(2)
  await expect(page.getByLabel('Title', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Custom title')).toHaveAttribute('aria-invalid', 'true')
  for (const text of await errors.allTextContents()) expect(text).toMatch(/^[A-Z].*\.$/)
  expect(sends()).toBe(0)
})
