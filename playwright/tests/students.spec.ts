// The pupil profile: details, year and form group, classes, the timeline, and comments the
// author may delete; no serious accessibility violation.
import AxeBuilder from '@axe-core/playwright'

import { expect, test } from '../fixtures/auth'

test('a teacher reads a pupil profile, comments and deletes the comment', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/feedback')
  const item = page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem').filter({ hasText: 'Ava Roberts' })
  await item.getByRole('button').click()
  await page.getByRole('link', { name: "View Ava Roberts's profile" }).click()

  await expect(page.getByRole('heading', { level: 1, name: 'Ava Roberts' })).toBeVisible()
  const details = page.getByRole('region', { name: 'Details' })
  await expect(details).toContainText('Year 7')
  await expect(details).toContainText('7A')
  await expect(details).toContainText('Year 7 English')
  await expect(page.getByRole('list', { name: 'Submissions and feedback' })).toContainText('Persuasive letter')

  const comment = `Reads confidently aloud (${Date.now()}).`
  await page.getByLabel('Add a comment').fill(comment)
  await page.getByRole('button', { name: 'Add comment' }).click()
  const comments = page.getByRole('list', { name: 'Comments' })
  await expect(comments).toContainText(comment)
  await expect(comments).toContainText('Taylor Reid')

  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
  expect(serious).toEqual([])

  await comments.getByRole('listitem').filter({ hasText: comment }).getByRole('button', { name: /Delete your comment/ }).click()
  await expect(page.getByText('Comment deleted.', { exact: true })).toBeVisible()
  await expect(page.getByText(comment)).toHaveCount(0)
})

test('a pupil of another school is not found', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/students/no-such-pupil')
  await expect(page.getByText('This pupil could not be found.')).toBeVisible()
})
