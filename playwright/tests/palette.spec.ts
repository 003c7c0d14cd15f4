// The mod+K search palette: actions and pupil profiles.
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
})
