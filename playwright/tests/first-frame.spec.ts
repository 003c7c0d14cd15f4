// The first frame (issue 27 item 6, docs/performance.md "The first frame"): before the app's
// JavaScript has arrived, a page shows its frame, heading and purpose, drawn from plain HTML;
// the app then takes its place without the heading moving. Signed-in pages are drawn only for
// a browser that holds a session (the server's `voicemark-signed-in` cookie), the sign-in page
// only for one that does not.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, signIn, test } from '../fixtures/auth'
import { holdRequests } from '../fixtures/hold'

/** Holds the app's entry script until `release()` is called: the page is as a slow phone sees it. */
const ENTRY = /\/assets\/index-[^/]*\.js$/
const holdApp = (page: Page) => holdRequests(page, ENTRY)

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name })
/** The frame's heading: hidden from assistive technology (a stand-in the page replaces). */
const framed = (page: Page, name: string) => page.locator('#first-frame h1', { hasText: name })

test('a signed-in page shows its heading before the app runs, and the app takes its place without moving it', async ({ page }) => {
  await signIn(page, 'teacher')
  const app = await holdApp(page)
  const response = await page.goto('/feedback', { waitUntil: 'commit' })
  await expect.poll(app.count).toBeGreaterThan(0)
  // The frame's script is inline, allowed by its hash alone: no other inline script runs.
  const scripts = (response?.headers()['content-security-policy'] ?? '').split(';').find((d) => d.trim().startsWith('script-src'))
  expect(scripts).toMatch(/'sha256-[A-Za-z0-9+/]{43}='/)
  expect(scripts).not.toContain("'unsafe-inline'")

  await expect(framed(page, 'Feedback Hub')).toBeVisible()
  await expect(page.getByText('Work handed in and waiting for your feedback, oldest first.')).toBeVisible()
  // Only the frame so far: none of the page's own controls, and no "Loading…". The frame is a
  // picture of the page for the eyes: assistive technology (and a test) waits for the page.
  await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toHaveCount(0)
  await expect(page.getByText('Loading…')).toHaveCount(0)
  await expect(page.getByRole('heading')).toHaveCount(0)
  const before = await framed(page, 'Feedback Hub').boundingBox()
  const axe = await new AxeBuilder({ page }).analyze()
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])

  await app.release()
  await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toBeVisible()
  await expect(page.locator('#first-frame')).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
  const drawn = await heading(page, 'Feedback Hub').boundingBox()
  expect(before).not.toBeNull()
  expect(drawn).not.toBeNull()
  expect(Math.abs(drawn!.x - before!.x)).toBeLessThanOrEqual(1)
  expect(Math.abs(drawn!.y - before!.y)).toBeLessThanOrEqual(1)
})

test('on a phone the frame is the shell as the app draws it, and each framed page reads the same once loaded', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await signIn(page, 'admin')
  for (const [path, title, intro] of [
    ['/', 'Dashboard', 'Use voice recognition to give learners real-time quality feedback'],
    ['/notifications', 'Activity', 'The messages and assignments your school has sent, newest first.'],
    ['/leaders/tasks', 'Tasks', 'Your tasks and those shared with you, most recently changed first.'],
  ] as const) {
    const app = await holdApp(page)
    await page.goto(path, { waitUntil: 'commit' })
    await expect(framed(page, title)).toBeVisible()
    await expect(page.getByText(intro)).toBeVisible()
    await expect(page.locator('#first-frame img[src="/logo.svg"]')).toBeVisible()
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
    await app.release()
    await page.unroute(ENTRY)
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible()
    await expect(page.locator('#first-frame')).toHaveCount(0)
    await expect(heading(page, title)).toBeVisible()
    await expect(page.getByText(intro)).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
  }
})

test('a signed-out browser gets no signed-in frame, and the sign-in page its own', async ({ page }) => {
  const app = await holdApp(page)
  await page.goto('/feedback', { waitUntil: 'commit' })
  await expect.poll(app.count).toBeGreaterThan(0)
  // The frame's script has run (it comes before the held entry) and drew nothing.
  await expect(page.locator('#first-frame')).toBeAttached()
  await expect(page.locator('#first-frame')).toBeEmpty()
  await expect(page.getByText('Feedback Hub')).toHaveCount(0)
  await app.release()
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Ffeedback/)
  await expect(heading(page, 'Sign in')).toBeVisible()

  const again = await holdApp(page)
  await page.goto('/login', { waitUntil: 'commit' })
  await expect(framed(page, 'Sign in')).toBeVisible()
  await expect(page.getByText('Sign in to Voicemark with your school account.')).toBeVisible()
  await expect(page.getByLabel('Email')).toHaveCount(0)
  await again.release()
  await expect(page.getByLabel('Email')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
})

test('signing in sets the signed-in hint beside the session, readable by scripts; signing out removes both', async ({ page, context }) => {
  await signIn(page, 'teacher')
  const hint = (await context.cookies()).find((c) => c.name === 'voicemark-signed-in')
  expect(hint?.value).toBe('1')
  expect(hint?.httpOnly).toBe(false)
  const session = (await context.cookies()).find((c) => c.name === 'next-auth.session-token')
  expect(session?.httpOnly).toBe(true)
  expect(Math.abs((hint?.expires ?? 0) - (session?.expires ?? -1))).toBeLessThanOrEqual(1)

  await page.goto('/feedback')
  await expect(heading(page, 'Feedback Hub')).toBeVisible()
  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(heading(page, 'Sign in')).toBeVisible()
  const names = (await context.cookies()).map((c) => c.name)
  expect(names).not.toContain('voicemark-signed-in')
  expect(names).not.toContain('next-auth.session-token')

  // A hint left without a session is cleared by the next session check.
  await context.addCookies([{ name: 'voicemark-signed-in', value: '1', url: page.url() }])
  const answer = await page.request.get('/api/auth/session')
  expect(answer.headers()['set-cookie'] ?? '').toContain('voicemark-signed-in=; Max-Age=0')
})
