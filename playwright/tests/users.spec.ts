// Manage Users on a server of this file's own (its e-mail goes to a local SMTP sink):
// Northbridge is made Pro with 50 seats; an admin invites a teacher, who opens the e-mailed
// link, sets a password and signs in; the role picker and Disable show in the table; the
// superadmin searches and filters /users; axe finds nothing serious on either page.
import AxeBuilder from '@axe-core/playwright'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { expect, test, type Page } from '@playwright/test'

import { startMailSink, startVoicemark, type MailSink, type Voicemark } from '../fixtures/smtp'
import { PASSWORD, USERS, type DemoUser } from '../fixtures/users'

let mail: MailSink
let server: Voicemark
let dataDir: string

const INVITED = `tess.${Date.now()}@northbridge.test`

test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  mail = await startMailSink()
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'voicemark-e2e-users-'))
  server = await startVoicemark({ smtpPort: mail.port, env: { VOICEMARK_DATA_DIR: dataDir } })
  // Pro with 50 seats, as the subscription webhook would leave it.
  const pro = spawnSync('sqlite3', [
    path.join(dataDir, 'voicemark.db'),
    "UPDATE schools SET stripe_product_id = 'prod_pro_e2e', seats = 50 WHERE name = 'Northbridge Academy';",
  ])
  expect(pro.status, String(pro.stderr)).toBe(0)
})

test.afterAll(async () => {
  await server?.stop()
  await mail?.stop()
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
})

async function signIn(page: Page, user: DemoUser | string, password = PASSWORD) {
  const email = user in USERS ? USERS[user as DemoUser] : user
  const csrf = await page.request.get(`${server.baseURL}/api/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await page.request.post(`${server.baseURL}/api/auth/callback/credentials`, {
    form: { email, password, csrfToken, callbackUrl: '/', json: 'true' },
  })
  const { url } = (await response.json()) as { url?: string }
  expect(url ?? '', `sign-in of ${email}`).not.toContain('error=')
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
}

test('an admin invites a teacher, who sets a password from the e-mail and signs in', async ({ page, browser }) => {
  await signIn(page, 'admin')
  await page.goto(`${server.baseURL}/leaders/users`)
  await expect(page.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeVisible()
  const seats = page.getByRole('region', { name: 'Seats' })
  await expect(seats.getByText('50', { exact: true })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  await page.getByRole('button', { name: 'Invite user' }).click()
  const dialog = page.getByRole('dialog', { name: 'Invite a user' })
  await dialog.getByLabel('Forename').fill('Tess')
  await dialog.getByLabel('Surname').fill('Invited')
  await dialog.getByLabel('E-mail').fill(INVITED)
  await expect(dialog.getByLabel('Role').locator('option')).toHaveText(['Standard', 'Staff'])
  await dialog.getByRole('button', { name: 'Send invitation' }).click()
  await expect(dialog).toBeHidden()
  const row = page.getByRole('row').filter({ hasText: INVITED })
  await expect(row.getByText('Pending')).toBeVisible()
  await expect(row.getByText('Never')).toBeVisible()

  // The same address again: a field error.
  await page.getByRole('button', { name: 'Invite user' }).click()
  await dialog.getByLabel('Forename').fill('Tess')
  await dialog.getByLabel('Surname').fill('Again')
  await dialog.getByLabel('E-mail').fill(INVITED)
  await dialog.getByRole('button', { name: 'Send invitation' }).click()
  await expect(dialog.getByText('An account already uses this e-mail address.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()

  await expect.poll(() => mail.messages.filter((m) => m.to.includes(INVITED)).length, { timeout: 15_000 }).toBe(1)
  const invitation = mail.messages.find((m) => m.to.includes(INVITED))!
  expect(invitation.subject).toBe('You have been invited to Voicemark')
  const link = invitation.text.match(/https?:\/\/\S+\/account\/reset\?token=\S+/)![0]

  const context = await browser.newContext()
  const teacher = await context.newPage()
  await teacher.goto(link)
  await expect(teacher.getByRole('heading', { name: 'Set your password' })).toBeVisible()
  await teacher.getByLabel('New password', { exact: true }).fill('Invited1pass')
  await teacher.getByLabel('Confirm new password').fill('Invited1pass')
  await teacher.getByRole('button', { name: 'Set password' }).click()
  await expect(teacher.getByText('Your password is set and your account is active.')).toBeVisible()
  await teacher.getByRole('link', { name: 'Sign in', exact: true }).click()
  await teacher.getByLabel('Email').fill(INVITED)
  await teacher.getByLabel('Password').fill('Invited1pass')
  await teacher.getByRole('button', { name: 'Sign in' }).click()
  await expect(teacher.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await context.close()

  await page.reload()
  await expect(row.getByText('Active')).toBeVisible()
})

test('the role picker and Disable show in the table', async ({ page }) => {
  await signIn(page, 'admin')
  await page.goto(`${server.baseURL}/leaders/users`)
  const row = page.getByRole('row').filter({ hasText: INVITED })
  const picker = row.getByLabel('Role of Tess Invited')
  await expect(picker).toHaveValue('TEACHER')
  await picker.selectOption({ label: 'Staff' })
  await expect(page.getByText('Tess Invited is now Staff.').first()).toBeVisible()
  await page.reload()
  await expect(row.getByLabel('Role of Tess Invited')).toHaveValue('ADMIN')

  await row.getByRole('button', { name: 'Disable Tess Invited' }).click()
  await expect(row.getByText('Inactive')).toBeVisible()
  await expect(row.getByRole('button', { name: 'Enable Tess Invited' })).toBeVisible()
  // Nobody disables or re-roles themselves: the admin's own row has neither control.
  const own = page.getByRole('row').filter({ hasText: USERS.admin })
  await expect(own.getByRole('button', { name: /^Disable/ })).toHaveCount(0)
  await expect(own.getByRole('combobox')).toHaveCount(0)
})

test('the superadmin searches and filters every user', async ({ page }) => {
  await signIn(page, 'superadmin')
  await page.goto(`${server.baseURL}/users`)
  await expect(page.getByRole('heading', { level: 1, name: 'Manage users' })).toBeVisible()
  await page.getByLabel('Search users').fill('teacher@northbridge')
  await expect(page.getByRole('row').filter({ hasText: USERS.teacher })).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: USERS.admin })).toHaveCount(0)
  await page.getByLabel('Search users').fill('')
  // /users is in the main area and names roles as the main area does (spec section 3).
  await expect(page.getByLabel('Role', { exact: true }).locator('option')).toHaveText([
    'All roles', 'Teacher', 'Admin', 'Superadmin / provider staff', 'Organisation Admin', 'MAT User',
  ])
  await page.getByLabel('Role', { exact: true }).selectOption({ label: 'MAT User' })
  await expect(page.getByRole('row').filter({ hasText: USERS.matUser })).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: USERS.matUser }).locator('option:checked')).toHaveText('MAT User')
  await expect(page.getByRole('row').filter({ hasText: USERS.teacher })).toHaveCount(0)
  await page.getByLabel('School', { exact: true }).selectOption({ label: 'Riverside Primary' })
  await expect(page.getByText('No users found.')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
})
