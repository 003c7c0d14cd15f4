// Issue 12's whole journey on a server of this file's own with billing on (the stub Stripe of
// stubs/stripe-server.mjs: REST, the pricing-table stand-in, signed webhooks) and e-mail to
// a loopback SMTP server: a new person signs up for a new school and confirms; on Basic the
// school has one seat, the founder's; they upgrade through the pricing table, the signed
// webhook makes the school Pro with 10 seats; they invite a teacher, who sets a password
// from the e-mail and signs in.
import type { Page } from '@playwright/test'

import { startStripeStub, type StripeStub } from '../stubs/stripe-server.mjs'
import { expect, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile } from '../fixtures/smtp'
import { STRIPE_ORGANISATION_PORT } from '../fixtures/ports'

test.describe.configure({ mode: 'serial' })

const STRIPE_PORT = STRIPE_ORGANISATION_PORT
const STRIPE = `http://127.0.0.1:${STRIPE_PORT}`
const KEY = 'sk_test_e2e_journey'
const WEBHOOK_SECRET = 'whsec_e2e_journey_secret'
const PRO = 'prod_E2E_JOURNEY_PRO'

const servers = mailServersForFile(test, {
  VOICEMARK_STRIPE_SECRET_KEY: KEY,
  VOICEMARK_STRIPE_PUBLISHABLE_KEY: 'pk_test_stub',
  VOICEMARK_STRIPE_PRICING_TABLE_ID: 'prctbl_stub',
  VOICEMARK_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  VOICEMARK_STRIPE_API_URL: STRIPE,
  VOICEMARK_STRIPE_PRICING_TABLE_SCRIPT_URL: `${STRIPE}/pricing-table.js`,
  VOICEMARK_STRIPE_PRODUCT_BASIC: 'prod_E2E_JOURNEY_BASIC',
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

/** The first link to `path` in the newest e-mail to `to`. */
async function linkFor(mail: { messages: { to: string[]; text: string }[] }, to: string, path: string) {
  await expect.poll(() => mail.messages.filter((m) => m.to.includes(to)).length, { timeout: 30_000 }).toBeGreaterThan(0)
  const message = mail.messages.filter((m) => m.to.includes(to)).at(-1)!
  const match = new RegExp(`https?://[^\\s"'<>]+${path.replace('/', '\\/')}\\?token=[^\\s"'<>]+`).exec(message.text)
  expect(match, `a ${path} link in the e-mail to ${to}`).toBeTruthy()
  const url = new URL(match![0])
  return url.pathname + url.search
}

const seat = (page: Page, label: string) =>
  page.getByRole('region', { name: 'Seats' }).locator('div').filter({ has: page.getByText(label, { exact: true }) }).locator('dd')

test('a new school signs up, upgrades to Pro and invites a teacher who signs in', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const { mail } = await servers()
  const founder = `head.${Date.now().toString(36)}@meadowbank.test`
  const teacher = `teacher.${Date.now().toString(36)}@meadowbank.test`

  // Sign up and confirm: the school exists from the confirmation on.
  await page.goto('/account/register')
  await page.getByLabel('Forename').fill('Hana')
  await page.getByLabel('Surname').fill('Head')
  await page.getByLabel('Email').fill(founder)
  await page.getByLabel('Password').fill('Goodpass12')
  await page.getByLabel('Organisation name').fill('Meadowbank School')
  await page.getByLabel('Postcode').fill('MB1 4QT')
  await page.getByLabel('Type').selectOption('SCHOOL')
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(page.getByText(/Check your e-mail to confirm your address/)).toBeVisible()
  await page.goto(await linkFor(mail, founder, '/account/confirm'))
  await expect(page.getByText(/Meadowbank School is ready/)).toBeVisible()
  await page.getByRole('link', { name: 'Back to sign in' }).click()
  await submitLogin(page, founder, 'Goodpass12')
  await expect(page).not.toHaveURL(/\/login/)

  // Basic: one seat, the founder's.
  await page.goto('/leaders/users')
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeVisible()
  await expect(seat(page, 'Seats')).toHaveText('Basic plan: 1 user')
  await expect(seat(page, 'Used')).toHaveText('1')
  await expect(
    page.getByText('All your seats are taken: the Basic plan has one user. Upgrade to Pro to invite colleagues.'),
  ).toBeVisible()

  // Upgrade through the pricing table; the signed webhook makes the school Pro.
  await page.getByRole('banner').getByRole('button', { name: 'Upgrade to Pro' }).click()
  const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro' })
  await dialog.getByRole('button', { name: 'Subscribe' }).click()
  await expect(page).toHaveURL(/\/leaders\/users\?success=true$/)
  const modal = page.getByRole('dialog', { name: 'Welcome to Pro' })
  await expect(modal).toBeVisible({ timeout: 20_000 })
  await modal.getByRole('button', { name: 'Continue' }).click()
  await expect(page).toHaveURL(/\/leaders\/users$/)
  await expect(seat(page, 'Seats')).toHaveText('10')
  await expect(seat(page, 'Available')).toHaveText('9')
  const customer = stub?.requests.find((r) => r.path === 'POST /v1/customers')
  expect(customer?.form['name']).toBe('Meadowbank School')

  // Invite a teacher, who sets a password from the e-mail and signs in.
  await page.getByRole('button', { name: 'Invite user' }).click()
  const invite = page.getByRole('dialog', { name: 'Invite a user' })
  await invite.getByLabel('Forename').fill('Theo')
  await invite.getByLabel('Surname').fill('Teacher')
  await invite.getByLabel('E-mail').fill(teacher)
  await invite.getByRole('button', { name: 'Send invitation' }).click()
  await expect(invite).toBeHidden()
  const row = page.getByRole('row').filter({ hasText: teacher })
  await expect(row.getByText('Pending')).toBeVisible()
  await expect(seat(page, 'Pending')).toHaveText('1')

  const link = await linkFor(mail, teacher, '/account/reset')
  const context = await browser.newContext({ baseURL: new URL(page.url()).origin })
  const theo = await context.newPage()
  await theo.goto(link)
  await expect(theo.getByRole('heading', { name: 'Set your password' })).toBeVisible()
  await theo.getByLabel('New password', { exact: true }).fill('Teacher1pass')
  await theo.getByLabel('Confirm new password').fill('Teacher1pass')
  await theo.getByRole('button', { name: 'Set password' }).click()
  await expect(theo.getByText('Your password is set and your account is active.')).toBeVisible()
  await theo.getByRole('link', { name: 'Sign in', exact: true }).click()
  await submitLogin(theo, teacher, 'Teacher1pass')
  await expect(theo.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await context.close()

  await page.reload()
  await expect(row.getByText('Active')).toBeVisible()
  await expect(seat(page, 'Used')).toHaveText('2')
})
