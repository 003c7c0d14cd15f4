// Smoke tests: the server serves the built app, the wasm core loads in its worker, the
// API answers in JSON, and a public page has no serious accessibility problem.
import AxeBuilder from '@axe-core/playwright'

import { expect, test } from '../fixtures/auth'

const PURPOSE =
  'Use voice recognition to give learners real-time quality feedback, improve outcomes and reduce teacher workload.'

test('the dashboard shows the product; Settings shows the server health and the wasm core', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/')
  await expect(page).toHaveTitle('Voicemark')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await expect(page.getByText(PURPOSE)).toBeVisible()
  await expect(page.getByRole('main')).toBeVisible()
  // The developer's status card is not part of the everyday Dashboard (issue 9).
  await expect(page.getByRole('heading', { name: 'System status' })).toHaveCount(0)
  await expect(page.getByText('Server: ok')).toHaveCount(0)
  await page.goto('/settings')
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
  await expect(page.getByText('Server: ok')).toBeVisible()
  // Only a wasm module loaded inside the worker can answer coreVersion().
  await expect(page.getByText('Core 0.1.0 ready')).toBeVisible()
})

test('a deep link renders the app, not a server 404', async ({ page }) => {
  const response = await page.goto('/account/forgot')
  expect(response?.status()).toBe(200)
  await expect(page).toHaveTitle('Voicemark')
  await expect(page.getByRole('main')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot password' })).toBeVisible()
})

test('a signed-out deep link to a signed-in page leads to sign-in', async ({ page }) => {
  const response = await page.goto('/students/abc')
  expect(response?.status()).toBe(200)
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fstudents%2Fabc/)
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible()
})

test('the home link of an unknown page works from the keyboard', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/no/such/page')
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible()
  const home = page.getByRole('link', { name: 'Go to the home page' })
  await expect(home).toBeVisible()
  for (let presses = 0; presses < 6; presses++) {
    await page.keyboard.press('Tab')
    if (await home.evaluate((link) => link === document.activeElement)) break
  }
  await expect(home).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
})

test('unknown API paths answer 404 in JSON', async ({ request }) => {
  const response = await request.get('/api/nope')
  expect(response.status()).toBe(404)
  expect(response.headers()['content-type']).toContain('application/json')
  expect(await response.json()).toEqual({ error: 'Not found' })
})

test('the health endpoint answers ok', async ({ request }) => {
  const response = await request.get('/api/health')
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toContain('application/json')
  expect(await response.json()).toMatchObject({ status: 'ok', database: 'ok' })
})

test('the register page has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/account/register')
  await expect(page.getByRole('heading', { level: 1, name: 'Register' })).toBeVisible()
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
  expect(serious).toEqual([])
})
