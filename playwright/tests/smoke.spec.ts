// Smoke tests: the server serves the built app, the wasm core loads in its worker, the
// API answers in JSON, and the home page has no serious accessibility problem.
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'

const PURPOSE =
  'Use voice recognition to give learners real-time quality feedback, improve outcomes and reduce teacher workload.'

test('home page shows the product, the server health and the wasm core', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveTitle('Voicemark')
  await expect(page.getByRole('heading', { level: 1, name: 'Voicemark' })).toBeVisible()
  await expect(page.getByText(PURPOSE)).toBeVisible()
  await expect(page.getByRole('main')).toBeVisible()
  await expect(page.getByText('Server: ok')).toBeVisible()
  // Only a wasm module loaded inside the worker can answer coreVersion().
  await expect(page.getByText('Core 0.1.0 ready')).toBeVisible()
})

test('a deep link renders the app, not a server 404', async ({ page }) => {
  const response = await page.goto('/students/abc')
  expect(response?.status()).toBe(200)
  await expect(page).toHaveTitle('Voicemark')
  await expect(page.getByRole('main')).toBeVisible()
  await expect(page.getByRole('heading', { level: 1, name: 'This page is coming soon' })).toBeVisible()
})

test('the home link works from the keyboard', async ({ page }) => {
  await page.goto('/students/abc')
  const home = page.getByRole('link', { name: 'Go to the home page' })
  await expect(home).toBeVisible()
  for (let presses = 0; presses < 5; presses++) {
    await page.keyboard.press('Tab')
    if (await home.evaluate((link) => link === document.activeElement)) break
  }
  await expect(home).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Voicemark' })).toBeVisible()
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

test('the home page has no serious or critical accessibility violation', async ({ page }) => {
  await page.goto('/')
  // Audit the settled page: both status lines have their final text.
  await expect(page.getByText('Server: ok')).toBeVisible()
  await expect(page.getByText('Core 0.1.0 ready')).toBeVisible()
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
  expect(serious).toEqual([])
})
