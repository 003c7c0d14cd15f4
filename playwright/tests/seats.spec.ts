// Manage Users on the demo school, which is on Basic (one seat) with five active users: the
// Seats section says in a sentence that the school has more users than seats, and 'Invite
// user' (and the CSV invite) are disabled with the reason shown beside them.
import AxeBuilder from '@axe-core/playwright'

import { expect, test } from '../fixtures/auth'

test('a school with more users than seats is told so, and Invite user is disabled with the reason', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/leaders/users')
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeVisible()

  const seats = page.getByRole('region', { name: 'Seats' })
  await expect(seats.getByRole('status')).toContainText('Your school has more users than seats:')
  await expect(seats.getByRole('status')).toContainText('but the Basic plan has 1 seat.')
  await expect(seats.getByRole('status')).toContainText(/That is \d+ more than your plan allows, so nobody new can be invited\./)

  const invite = page.getByRole('button', { name: 'Invite user' })
  await expect(invite).toBeDisabled()
  await expect(invite).toHaveAccessibleDescription('No seat is free, so nobody can be invited.')
  await expect(page.getByText('No seat is free, so nobody can be invited.').first()).toBeVisible()
  await expect(page.getByRole('button', { name: 'Invite from file' })).toBeDisabled()

  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
})
