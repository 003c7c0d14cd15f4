// The mod+K search palette: actions and pupil profiles; on a phone, the header's search button.
import AxeBuilder from '@axe-core/playwright'

import { expect, test } from '../fixtures/auth'

test('Control+K finds a pupil and opens the profile', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await page.keyboard.press('Control+K')
  const search = page.getByPlaceholder('Search...')
  await expect(search).toBeFocused()
  await search.fill('Amelia')
  await expect(page.getByRole('option', { name: /Amelia/ }).first()).toBeVisible()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/students\/[^/]+$/)
  await expect(page.getByRole('heading', { level: 1, name: /^Amelia / })).toBeVisible()
})

test('the browser keeps the roster and is answered 304 for it after a reload', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  const isRoster = (url: string) => url.includes('school.listStudents')
  const first = page.waitForResponse((response) => isRoster(response.url()))
  await page.keyboard.press('Control+K')
  expect((await first).status()).toBe(200)
  expect(await (await first).headerValue('etag')).toMatch(/^W\/"/)
  expect((await (await first).request().sizes()).responseBodySize).toBeGreaterThan(0)
  await page.getByPlaceholder('Search...').fill('Amelia')
  await expect(page.getByRole('option', { name: /Amelia/ }).first()).toBeVisible()

  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  const second = page.waitForResponse((response) => isRoster(response.url()))
  await page.keyboard.press('Control+K')
  const revalidated = await second
  expect(await revalidated.request().headerValue('if-none-match')).toMatch(/^W\/"/)
  // The server answered 304 (Chromium hands the page its kept 200): no body came.
  expect((await revalidated.request().sizes()).responseBodySize).toBe(0)
  // The kept copy fills the palette as before.
  await page.getByPlaceholder('Search...').fill('Amelia')
  await expect(page.getByRole('option', { name: /Amelia/ }).first()).toBeVisible()
})

test('the palette says when nothing matches and runs New message', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await page.keyboard.press('Control+K')
  await page.getByPlaceholder('Search...').fill('zzzzqqq')
  await expect(page.getByText('Nothing found...')).toBeVisible()
  await page.getByPlaceholder('Search...').fill('New message')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL('/notifications/create')
  await expect(page.getByRole('heading', { level: 1, name: 'New message' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Send message' })).toBeVisible()
  await expect(page.getByLabel('Due date')).toHaveCount(0)
})

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true })

  test("the header's search button reaches the palette's actions by touch", async ({ page, signIn }) => {
    await signIn('teacher')
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
    const button = page.getByRole('button', { name: 'Search and actions' })
    await expect(button).toBeVisible()
    await button.tap()
    const palette = page.getByRole('dialog', { name: 'Search' })
    await expect(palette.getByPlaceholder('Search...')).toBeVisible()
    for (const action of ['New message', 'New voice note', 'New photo']) {
      await expect(palette.getByRole('option', { name: action })).toBeVisible()
    }
    const results = await new AxeBuilder({ page }).include('[role="dialog"]').analyze()
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
    await palette.getByRole('option', { name: 'New photo' }).tap()
    await expect(page.getByRole('dialog', { name: 'Analyse photos' })).toBeVisible()
  })

  test("the header's search button works from the keyboard", async ({ page, signIn }) => {
    await signIn('teacher')
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
    await page.getByRole('button', { name: 'Search and actions' }).focus()
    await page.keyboard.press('Enter')
    await expect(page.getByPlaceholder('Search...')).toBeFocused()
    await page.keyboard.type('New voice')
    await expect(page.getByRole('option', { name: 'New voice note' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(page.getByPlaceholder('Search...')).toHaveCount(0)
  })
})

test('the input keeps its height over the full pupil list, and names rank by word start', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await page.keyboard.press('Control+K')
  const palette = page.getByRole('dialog', { name: 'Search' })
  const search = palette.getByPlaceholder('Search...')
  await expect(palette.getByRole('group', { name: 'Pupil Profiles' }).getByRole('option').nth(20)).toBeVisible()
  expect((await search.boundingBox())!.height).toBeGreaterThanOrEqual(44)

  await search.fill('Isla')
  const options = palette.getByRole('option')
  await expect(options.first()).toContainText(/^Isla\b/)
  // Only names with "isla" at a word's start or inside a word: never scattered letters.
  for (const text of await options.allTextContents()) expect(text.toLowerCase()).toContain('isla')
  await expect(palette.getByRole('option', { name: /Noah Wilson/ })).toHaveCount(0)
  expect((await search.boundingBox())!.height).toBeGreaterThanOrEqual(44)
})

test('the shortcut hint reads Ctrl K here (⌘K on a Mac)', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/')
  const button = page.getByRole('banner').getByRole('button', { name: /^Search/ })
  await expect(button).toContainText('Ctrl K')
})

test.describe('on a Mac', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36',
  })

  test('the shortcut hint reads ⌘K and Meta+K opens the palette', async ({ page, signIn }) => {
    await page.addInitScript(() => Object.defineProperty(navigator, 'platform', { get: () => 'MacIntel' }))
    await signIn('teacher')
    await page.goto('/')
    const button = page.getByRole('banner').getByRole('button', { name: /^Search/ })
    await expect(button).toContainText('⌘K')
    await page.keyboard.press('Meta+K')
    await expect(page.getByPlaceholder('Search...')).toBeFocused()
  })
})

test('a leader kept in the leaders area is not offered New message or pupil profiles', async ({ page, signIn }) => {
  await signIn('riversideLeader')
  await page.goto('/leaders/tasks')
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible()
  await page.keyboard.press('Control+K')
  const palette = page.getByRole('dialog', { name: 'Search' })
  await expect(palette.getByRole('option', { name: 'New voice note' })).toBeVisible()
  await expect(palette.getByRole('option', { name: 'New photo' })).toBeVisible()
  await expect(palette.getByRole('option', { name: 'New message' })).toHaveCount(0)
  await expect(palette.getByRole('group', { name: 'Pupil Profiles' })).toHaveCount(0)
})
