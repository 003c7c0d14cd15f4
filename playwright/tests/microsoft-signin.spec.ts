// Sign in with Microsoft (issue 13 point 6, docs/microsoft-signin.md) on a server of this
// file's own configured with the stub Microsoft identity platform
// (stubs/microsoft-server.mjs, on MICROSOFT_PORT: OpenID configuration, JWKS, an authorize page
// and a token endpoint issuing RS256 id_tokens). A demo teacher signs in with Microsoft,
// using the keyboard only, and sees their dashboard; a leader of a school kept in the
// leaders area lands there; an unknown address sees the UserNotFound text on /login; the
// button shows only when the server lists the provider; axe finds nothing serious on /login.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import {
  startMicrosoftStub,
  STUB_CLIENT_ID,
  STUB_CLIENT_SECRET,
  type MicrosoftStub,
} from '../stubs/microsoft-server.mjs'
import { expect, test } from '../fixtures/auth'
import { mailServersForFile } from '../fixtures/smtp'
import { MICROSOFT_PORT } from '../fixtures/ports'
import { USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

const MICROSOFT = `http://127.0.0.1:${MICROSOFT_PORT}`
const BUTTON = 'Sign in with Microsoft'
const USER_NOT_FOUND =
  'You do not have an active account with us, please contact support if you believe this to be in error.'

mailServersForFile(test, {
  VOICEMARK_MICROSOFT_CLIENT_ID: STUB_CLIENT_ID,
  VOICEMARK_MICROSOFT_CLIENT_SECRET: STUB_CLIENT_SECRET,
  VOICEMARK_MICROSOFT_TENANT_ID: 'organizations',
  VOICEMARK_MICROSOFT_LOGIN_URL: MICROSOFT,
})

let stub: MicrosoftStub | undefined
test.beforeAll(async () => {
  stub = await startMicrosoftStub({ port: MICROSOFT_PORT })
})
test.afterAll(async () => {
  await stub?.stop()
  stub = undefined
})

/** On the stub's sign-in page: types the account's address and goes on. */
async function signInAtMicrosoft(page: Page, email: string) {
  await expect(page).toHaveURL(new RegExp(`^${MICROSOFT}/organizations/oauth2/v2\\.0/authorize\\?`))
  const authorize = new URL(page.url())
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256')
  expect(authorize.searchParams.get('client_id')).toBe(STUB_CLIENT_ID)
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible()
  await page.getByLabel('Email address').fill(email)
  await page.getByRole('button', { name: 'Next' }).click()
}

test('a demo teacher signs in with Microsoft, by keyboard, and sees the dashboard', async ({ page }) => {
  await page.goto('/login')
  const button = page.getByRole('button', { name: BUTTON, exact: true })
  await expect(button).toBeVisible()
  await button.focus()
  await page.keyboard.press('Enter')
  await signInAtMicrosoft(page, USERS.teacher)
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  const session = await (await page.request.get('/api/auth/session')).json()
  expect(session.user.email).toBe(USERS.teacher)
  expect(stub?.requests.at(-1)).toMatchObject({ grantType: 'authorization_code', clientId: STUB_CLIENT_ID })
})

test('a leader whose school keeps them in the leaders area lands there', async ({ page }) => {
  await page.goto('/login?callbackUrl=%2Ffeedback')
  await page.getByRole('button', { name: BUTTON, exact: true }).click()
  await signInAtMicrosoft(page, USERS.riversideLeader)
  await expect(page).toHaveURL('/leaders/tasks')
})

test('an unknown address sees the UserNotFound text on /login', async ({ page }) => {
  await page.goto('/login')
  await page.getByRole('button', { name: BUTTON, exact: true }).click()
  await signInAtMicrosoft(page, 'nobody@northbridge.test')
  await expect(page).toHaveURL('/login?error=UserNotFound')
  await expect(page.getByRole('alert')).toHaveText(USER_NOT_FOUND)
  const session = await (await page.request.get('/api/auth/session')).json()
  expect(session).toEqual({})
})

test('the button shows only when the server lists Microsoft', async ({ page }) => {
  await page.route('**/api/auth/providers', async (route) => {
    const listed = (await (await route.fetch()).json()) as Record<string, unknown>
    expect(listed['azure-ad']).toMatchObject({ id: 'azure-ad', type: 'oauth' })
    delete listed['azure-ad']
    await route.fulfill({ json: listed })
  })
  // The list without Microsoft has reached the page (the form shows before it arrives, so
  // checking the button any sooner would prove nothing, and end the test mid-request).
  const answered = page.waitForResponse('**/api/auth/providers')
  await page.goto('/login')
  expect(await (await answered).json()).not.toHaveProperty('azure-ad')
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible()
  // Two frames for the page to draw what it received.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  await expect(page.getByRole('button', { name: BUTTON })).toHaveCount(0)
})

test('/login with Microsoft and an error shown has no serious or critical violation', async ({ page }) => {
  await page.goto('/login?error=OAuthCallbackError')
  await expect(page.getByRole('alert')).toHaveText(
    'Sign in with Microsoft did not complete. Please try again, or sign in with your e-mail address.',
  )
  await expect(page.getByRole('button', { name: BUTTON, exact: true })).toBeVisible()
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
  expect(serious).toEqual([])
})
