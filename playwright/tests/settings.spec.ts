// /settings: name, password rule (checked by the wasm core before sending), preferences.
import { expect, test } from '../fixtures/auth'

const RULE = 'Passwords must be at least 8 characters and should include at least 1 number and 1 uppercase letter.'

test('changing the name shows a success toast', async ({ page, signIn }) => {
  await signIn('orgAdmin')
  await page.goto('/settings')
  await expect(page.getByLabel('Forename')).not.toHaveValue('')
  // A fresh name each run, so repeated runs do not depend on each other.
  const forename = `Olive${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`
  await page.getByLabel('Forename').fill(forename)
  await page.getByRole('button', { name: 'Save name' }).click()
  await expect(page.getByText('Name saved.', { exact: true })).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Forename')).toHaveValue(forename)
})

test('a weak new password is refused in the browser with the rule', async ({ page, signIn }) => {
  await signIn('matUser')
  await page.goto('/settings')
  await page.getByLabel('Current password').fill('Voicemark1')
  await page.getByLabel('New password', { exact: true }).fill('weak')
  await page.getByLabel('Confirm new password').fill('weak')
  await page.getByRole('button', { name: 'Change password' }).click()
  await expect(page.getByText(RULE)).toBeVisible()
  await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute('aria-invalid', 'true')
})

test('e-mail preferences save', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/leaders/settings')
  await page.getByLabel('Frequency').selectOption('WEEKLY')
  await page.getByRole('button', { name: 'Save preferences' }).click()
  const toast = page.getByText('E-mail preferences saved.', { exact: true })
  await expect(toast).toBeVisible()
  // Toasts close by themselves after 4 seconds.
  await expect(toast).toBeHidden({ timeout: 8_000 })
  await page.reload()
  await expect(page.getByLabel('Frequency')).toHaveValue('WEEKLY')
})
