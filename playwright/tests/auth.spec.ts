// Sign-in: the error texts of spec section 8, the way back after SessionRequired, the
// leaders-area redirect, keyboard-only sign-in and Log out.
import { expect, signIn, submitLogin, test } from '../fixtures/auth'
import { USERS } from '../fixtures/users'

const TEXTS = {
  CredentialsSignin: 'Incorrect username or password.',
  UserNotFound:
    'You do not have an active account with us, please contact support if you believe this to be in error.',
  UserNotActivated:
    'Your account must be activated before you can access the product, please contact your school administrator.',
  AccountDisabled: 'Your account is currently disabled. Please email support@voicemark.app for more information.',
  SessionRequired: 'Please sign in to continue.',
}

test('a wrong password says so', async ({ page }) => {
  await page.goto('/login')
  await submitLogin(page, USERS.teacher, 'Wrong-password1')
  await expect(page.getByRole('alert')).toHaveText(TEXTS.CredentialsSignin)
  await expect(page).toHaveURL(/\/login/)
})

test('an unknown e-mail address reads like a wrong password, revealing no account', async ({ page }) => {
  await page.goto('/login')
  await submitLogin(page, 'nobody@nowhere.test')
  await expect(page.getByRole('alert')).toHaveText(TEXTS.CredentialsSignin)
})

test('a disabled account sees the AccountDisabled text', async ({ page }) => {
  await page.goto('/login')
  await submitLogin(page, USERS.disabled)
  await expect(page.getByRole('alert')).toHaveText(TEXTS.AccountDisabled)
})

test('an account not yet activated sees the UserNotActivated text', async ({ page }) => {
  await page.goto('/login')
  await submitLogin(page, USERS.notActivated)
  await expect(page.getByRole('alert')).toHaveText(TEXTS.UserNotActivated)
})

test('the error in the address is shown on arrival', async ({ page }) => {
  await page.goto('/login?error=AccountDisabled')
  await expect(page.getByRole('alert')).toHaveText(TEXTS.AccountDisabled)
})

test('a signed-out visit to /feedback signs in and comes back', async ({ page }) => {
  await page.goto('/feedback')
  await expect(page).toHaveURL(/\/login\?/)
  const url = new URL(page.url())
  expect(url.searchParams.get('callbackUrl')).toBe('/feedback')
  expect(url.searchParams.get('error')).toBe('SessionRequired')
  await expect(page.getByRole('alert')).toHaveText(TEXTS.SessionRequired)

  await submitLogin(page, USERS.teacher)
  await expect(page).toHaveURL('/feedback')
  await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
})

test('a user of a school that redirects to leaders lands on /leaders/tasks', async ({ page }) => {
  await page.goto('/login')
  await submitLogin(page, USERS.riversideLeader)
  await expect(page).toHaveURL('/leaders/tasks')
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible()
  // And stays there: the pupil area sends them back.
  await page.goto('/feedback')
  await expect(page).toHaveURL('/leaders/tasks')
})

test('signs in with the keyboard alone', async ({ page }) => {
  await page.goto('/login')
  const email = page.getByLabel('Email')
  for (let presses = 0; presses < 6 && !(await email.evaluate((el) => el === document.activeElement)); presses++) {
    await page.keyboard.press('Tab')
  }
  await expect(email).toBeFocused()
  await page.keyboard.type(USERS.teacher)
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Password')).toBeFocused()
  await page.keyboard.type('Voicemark1')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
})

test('Log out returns to /login and ends the session', async ({ page }) => {
  await signIn(page, 'teacher')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  await expect(page).toHaveURL('/login')
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible()
  await page.goto('/settings')
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsettings/)
})
