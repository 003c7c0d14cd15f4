// Plans and Stripe (issue 12 item 5, docs/billing.md) on a server of this file's own with
// billing on, talking to the stub Stripe (stubs/stripe-server.mjs: REST, the pricing-table
// stand-in and signed webhooks): the 'Unlock more features' banner hides for a week; an
// admin upgrades through the pricing table, the signed webhook arrives, the plan-change
// modal says 'Welcome to Pro', Continue clears `?success` and the header stops offering
// Upgrade to Pro; 'Manage subscription' then opens the billing portal.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { startStripeStub, type StripeStub } from '../stubs/stripe-server.mjs'
import { expect, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile } from '../fixtures/smtp'
import { STRIPE_BILLING_PORT } from '../fixtures/ports'
import { USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

const STRIPE_PORT = STRIPE_BILLING_PORT
const STRIPE = `http://127.0.0.1:${STRIPE_PORT}`
const KEY = 'sk_test_e2e_billing'
const WEBHOOK_SECRET = 'whsec_e2e_billing_secret'
const PRO = 'prod_E2E_PRO'

const servers = mailServersForFile(test, {
  VOICEMARK_STRIPE_SECRET_KEY: KEY,
  VOICEMARK_STRIPE_PUBLISHABLE_KEY: 'pk_test_stub',
  VOICEMARK_STRIPE_PRICING_TABLE_ID: 'prctbl_stub',
  VOICEMARK_STRIPE_WEBHOOK_SECRET: `whsec_rotated_old,${WEBHOOK_SECRET}`,
  VOICEMARK_STRIPE_API_URL: STRIPE,
  VOICEMARK_STRIPE_PRICING_TABLE_SCRIPT_URL: `${STRIPE}/pricing-table.js`,
  VOICEMARK_STRIPE_PRODUCT_BASIC: 'prod_E2E_BASIC',
  VOICEMARK_STRIPE_PRODUCT_PRO: PRO,
})

let stub: StripeStub | undefined
test.beforeAll(async () => {
  stub = await startStripeStub({ port: STRIPE_PORT, key: KEY, webhookSecret: WEBHOOK_SECRET, proProduct: PRO })
})
test.afterAll(async () => {
  await stub?.stop()
  stub = undefined
})

async function signInAs(page: Page, email: string) {
  await page.context().clearCookies()
  await page.goto('/login')
  await submitLogin(page, email)
  await expect(page).not.toHaveURL(/\/login/)
}

async function serious(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, nodes }) => ({ id, targets: nodes.map((n) => n.target) }))
}

const banner = (page: Page) => page.getByRole('region', { name: 'Unlock more features' })

test("the banner 'Unlock more features' hides for a week after 'Remind me next week'", async ({ page }) => {
  await servers()
  await signInAs(page, USERS.admin)
  await page.goto('/leaders/tasks')
  await expect(banner(page)).toBeVisible()
  await expect(banner(page).getByRole('button', { name: 'Upgrade to Pro' })).toBeVisible()
  expect(await serious(page)).toEqual([])
  await banner(page).getByRole('button', { name: 'Remind me next week' }).click()
  await expect(banner(page)).toBeHidden()
  const cookie = (await page.context().cookies()).find((c) => c.name === 'hideUpgradeNotice')
  expect(cookie).toBeDefined()
  const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86400
  expect(days).toBeGreaterThan(6.9)
  expect(days).toBeLessThanOrEqual(7)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(banner(page)).toBeHidden()
  // Teachers never see it.
  await signInAs(page, USERS.teacher)
  await page.goto('/leaders/tasks')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(banner(page)).toBeHidden()
})

test('an admin upgrades through the pricing table and is welcomed to Pro', async ({ page }) => {
  await servers()
  await signInAs(page, USERS.admin)
  await page.goto('/leaders/tasks')
  const header = page.getByRole('banner')
  await header.getByRole('button', { name: 'Upgrade to Pro' }).click()
  const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro' })
  await expect(dialog).toBeVisible()
  const subscribe = dialog.getByRole('button', { name: 'Subscribe' })
  await expect(subscribe).toBeVisible()
  expect(await serious(page)).toEqual([])

  // The server made the school's customer and a customer session with the stub's REST.
  const requests = stub?.requests ?? []
  const customer = requests.find((r) => r.path === 'POST /v1/customers')
  expect(customer?.form['name']).toBe('Northbridge Academy')
  expect(customer?.form['email']).toBe(USERS.admin)
  expect(requests.find((r) => r.path === 'POST /v1/customer_sessions')?.form['components[pricing_table][enabled]']).toBe('true')

  await subscribe.click()
  await expect(page).toHaveURL(/\/leaders\/tasks\?success=true$/)
  const modal = page.getByRole('dialog', { name: 'Welcome to Pro' })
  await expect(modal).toBeVisible({ timeout: 20_000 })
  // Neither Escape nor a click outside closes it.
  await page.keyboard.press('Escape')
  await page.mouse.click(5, 5)
  await expect(modal).toBeVisible()
  expect(await serious(page)).toEqual([])
  await modal.getByRole('button', { name: 'Continue' }).click()
  await expect(modal).toBeHidden()
  await expect(page).toHaveURL(/\/leaders\/tasks$/)
  await expect(header.getByRole('button', { name: 'Upgrade to Pro' })).toHaveCount(0)
  await expect(banner(page)).toBeHidden()

  // Pro now: 'Manage subscription' opens the billing portal, which returns here.
  await header.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Manage subscription' }).click()
  await expect(page.getByRole('heading', { name: 'Billing portal' })).toBeVisible()
  const portal = requests.find((r) => r.path === 'POST /v1/billing_portal/sessions')
  expect(portal?.form['return_url']).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/leaders\/tasks$/)
  await page.getByRole('link', { name: 'Return' }).click()
  await expect(page).toHaveURL(/\/leaders\/tasks$/)
})
