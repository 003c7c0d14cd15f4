// The public account pages: forgot password, reset, confirm, register, e-mail link.
import { expect, test } from '../fixtures/auth'
import { USERS } from '../fixtures/users'

const RULE = 'Passwords must be at least 8 characters and should include at least 1 number and 1 uppercase letter.'

test('forgot password answers the same for any address', async ({ page }) => {
  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot password?' }).click()
  await expect(page).toHaveURL('/account/forgot')
  await page.getByLabel('Email').fill('nobody-at-all@nowhere.test')
  await page.getByRole('button', { name: 'Send reset link' }).click()
  await expect(page.getByText('If an account exists for that address, we have sent a link to reset the password.')).toBeVisible()
})

test('reset checks the password rule in the browser', async ({ page }) => {
  await page.goto('/account/reset?token=not-a-real-token')
  await page.getByLabel('New password', { exact: true }).fill('short')
  await page.getByLabel('Confirm new password').fill('short')
  await page.getByRole('button', { name: 'Reset password' }).click()
  await expect(page.getByText(RULE)).toBeVisible()
})

test('reset with an unknown token says the link is invalid', async ({ page }) => {
  await page.goto('/account/reset?token=not-a-real-token')
  await page.getByLabel('New password', { exact: true }).fill('Goodpass12')
  await page.getByLabel('Confirm new password').fill('Goodpass12')
  await page.getByRole('button', { name: 'Reset password' }).click()
  await expect(page.getByRole('alert')).toBeVisible()
})

test('confirming with an unknown token says the link is invalid', async ({ page }) => {
  await page.goto('/account/confirm?token=not-a-real-token')
  await expect(page.getByText('This link is invalid or has expired.')).toBeVisible()
})

test('registering answers with the neutral text', async ({ page }) => {
  await page.goto('/login')
  await page.getByRole('link', { name: 'Register' }).click()
  await expect(page).toHaveURL('/account/register')
  await page.getByLabel('Forename').fill('Rita')
  await page.getByLabel('Surname').fill('Register')
  await page.getByLabel('Email').fill(`rita.${Date.now()}@northbridge.test`)
  await page.getByLabel('Password').fill('Goodpass12')
  await page.getByLabel('Organisation name').fill('Register Academy')
  await page.getByLabel('Postcode').fill('RG1 2AB')
  await page.getByRole('button', { name: 'Register' }).click()
  await expect(
    page.getByText(
      'Check your e-mail to confirm your address. Confirming it creates your organisation, and you can then sign in as its administrator.',
    ),
  ).toBeVisible()
})

test('the e-mail sign-in link answers neutrally', async ({ page }) => {
  await page.goto('/login')
  await page.getByLabel('Email').fill(USERS.matUser)
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click()
  await expect(page.getByText('If an account exists for that address, we have sent a sign-in link to it.')).toBeVisible()
})
