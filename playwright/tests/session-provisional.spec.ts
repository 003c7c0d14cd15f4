// A returning user's page draws on the session remembered on the device while the server is
// asked (issue 27 item 6, docs/performance.md "With the service worker, and the provisional
// session"): the page shows before /api/auth/session answers; a remembered role that is out
// of date never refuses a page the real session may open; a remembered session whose cookie
// is gone ends on the sign-in page with the way back.
import type { Page } from '@playwright/test'

import { expect, signIn, test } from '../fixtures/auth'
import { holdRequests } from '../fixtures/hold'

/** Holds every /api/auth/session answer until `release()` is called. */
const holdSession = (page: Page) => holdRequests(page, '**/api/auth/session')

test('the page shows before the session answers, from the session remembered on the device', async ({ page }) => {
  await signIn(page, 'teacher')
  await page.goto('/feedback')
  await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('voicemark.session'))).toContain('teacher@northbridge.test')

  const session = await holdSession(page)
  await page.goto('/notifications')
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible()
  await expect.poll(session.count).toBeGreaterThan(0)
  await session.release()
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible()
})

test("a remembered role out of date does not refuse a page the server's session may open", async ({ page, context }) => {
  await signIn(page, 'teacher')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  // The cookie changes to the admin's; the device still remembers the teacher.
  await context.clearCookies()
  await signIn(page, 'admin')
  const session = await holdSession(page)
  await page.goto('/admin')
  await expect.poll(session.count).toBeGreaterThan(0)
  // Held: the teacher remembered may not open Manage School, so the page waits rather than refuse.
  await expect(page.getByText('You do not have access to this page.')).toHaveCount(0)
  await session.release()
  await expect(page.getByRole('heading', { level: 1, name: 'Manage School' })).toBeVisible()
  await expect(page.getByText('You do not have access to this page.')).toHaveCount(0)
})

test('a remembered session whose cookie is gone ends on the sign-in page, with the way back', async ({ page, context }) => {
  await signIn(page, 'teacher')
  await page.goto('/feedback')
  await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
  await context.clearCookies()
  await page.goto('/feedback')
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Ffeedback(&|$)/)
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  // The sign-in page never forwards a remembered session: it stays until the user signs in.
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  await expect(page).toHaveURL(/\/login$/)
})
