// axe-core finds no serious or critical violation on the public and signed-in pages.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
}

test('/login has no serious or critical violation', async ({ page }) => {
  await page.goto('/login?error=CredentialsSignin')
  await expect(page.getByRole('alert')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
})

test('the signed-in shell has no serious or critical violation', async ({ page, signIn }) => {
  await signIn('superadmin')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Manage School' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
})

test('the leaders area and the settings page have no serious or critical violation', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/leaders/settings')
  await expect(page.getByRole('heading', { level: 2, name: 'Password' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
})

test('the skip link moves focus to the main content', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await page.keyboard.press('Tab')
  const skip = page.getByRole('link', { name: 'Skip to main content' })
  await expect(skip).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('main')).toBeFocused()
})
