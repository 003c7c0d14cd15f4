// Manage School (/admin): an admin adds a pupil (with the parent's e-mail language), imports pupils from a CSV file (a bad line
// is reported by number and nothing is imported until the file is clean), and axe finds no
// serious or critical violation.
import AxeBuilder from '@axe-core/playwright'

import { expect, test } from '../fixtures/auth'

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`

test('an admin adds a pupil', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/admin')
  await expect(page.getByRole('heading', { level: 1, name: 'Manage School' })).toBeVisible()
  const surname = `Pupil${unique()}`
  await page.getByRole('button', { name: 'Add pupil' }).click()
  await page.getByLabel('Forename').fill('Ada')
  await page.getByLabel('Surname').fill(surname)
  await page.getByLabel('Parent e-mail').fill('not-an-address')
  await page.getByRole('button', { name: 'Add pupil' }).click()
  // The server's field error lands on its field.
  await expect(page.getByText('Enter a valid e-mail address.')).toBeVisible()
  await expect(page.getByLabel('Parent e-mail')).toHaveAttribute('aria-invalid', 'true')
  await page.getByLabel('Parent e-mail').fill(`parent.${surname.toLowerCase()}@families.test`)
  await page.getByLabel('Year group').selectOption({ label: 'Year 7' })
  await expect(page.getByLabel("Parent's language")).toHaveValue('en')
  await page.getByLabel("Parent's language").selectOption({ label: 'Polish' })
  await page.getByRole('button', { name: 'Add pupil' }).click()
  await expect(page.getByText('Pupil added.', { exact: true })).toBeVisible()
  await page.getByLabel('Search pupils').fill(surname)
  const row = page.getByRole('row', { name: new RegExp(surname) })
  await expect(row).toBeVisible()
  await expect(row).toContainText('Year 7')
  // The parent's language is kept with the record (it is their e-mail language).
  await row.getByRole('button', { name: `Edit Ada ${surname}` }).click()
  await expect(page.getByRole('heading', { name: `Edit Ada ${surname}` })).toBeVisible()
  await expect(page.getByLabel("Parent's language")).toHaveValue('pl')
})

test('on the Basic plan a new member of staff is refused for want of a seat, and nothing is added', async ({ page, signIn }) => {
  // The demo school is on Basic (one user), so the form says how to get seats instead.
  await signIn('admin')
  await page.goto('/admin/staff')
  const email = `staff.${unique()}@northbridge.test`
  await page.getByRole('button', { name: 'Add staff member' }).click()
  await page.getByLabel('Forename').fill('Sol')
  await page.getByLabel('Surname').fill('Reyes')
  await page.getByLabel('E-mail').fill(email)
  await page.getByRole('button', { name: 'Add staff member' }).click()
  await expect(page.getByRole('alert')).toHaveText(
    'There are no free seats left: the Basic plan has one user. Choose Upgrade to Pro to invite colleagues.',
  )
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('table', { name: 'Staff' })).toBeVisible()
  await expect(page.getByText(email)).toHaveCount(0)
})

test('a CSV import reports the bad line, then imports the fixed file', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/admin/pupils')
  const tag = unique()
  const header = 'forename,surname,email,parentEmail,upn,yearGroup,formGroup'
  const bad = `${header}\nGrace,Hopper${tag},,,X${tag}1,Year 8,8A\n,Babbage${tag},,,X${tag}2,Year 8,8A\n`
  await page.getByLabel('CSV file', { exact: true }).setInputFiles({ name: 'pupils.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) })
  await page.getByRole('button', { name: 'Import pupils' }).click()
  await expect(page.getByRole('alert')).toContainText('Line 3: the forename is missing.')
  await expect(page.getByRole('alert')).toContainText('Nothing was imported.')
  await page.getByLabel('Search pupils').fill(tag)
  await expect(page.getByRole('status').filter({ hasText: 'pupil' })).toHaveText('0 pupils')

  const fixed = bad.replace(`\n,Babbage${tag}`, `\nCharles,Babbage${tag}`)
  await page.getByLabel('CSV file', { exact: true }).setInputFiles({ name: 'pupils.csv', mimeType: 'text/csv', buffer: Buffer.from(fixed) })
  await page.getByRole('button', { name: 'Import pupils' }).click()
  await expect(page.getByText('2 pupils imported.', { exact: true })).toBeVisible()
  await expect(page.getByRole('row', { name: new RegExp(`Babbage${tag}`) })).toBeVisible()
  await expect(page.getByRole('row', { name: new RegExp(`Hopper${tag}`) })).toContainText('8A')
})

test('Manage School has no serious or critical violation, and teachers get no access', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/admin/pupils')
  await expect(page.getByRole('row').nth(1)).toBeVisible()
  await page.getByRole('button', { name: 'Add pupil' }).click()
  await expect(page.getByLabel('Forename')).toBeVisible()
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
  expect(serious).toEqual([])

  await page.goto('/admin/settings')
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Northbridge Academy')

  await page.context().clearCookies()
  await signIn('teacher')
  await page.goto('/admin')
  await expect(page.getByText('You do not have access to this page.')).toBeVisible()
})

test('a teacher opening /admin is refused before any admin query is sent', async ({ page, signIn }) => {
  const adminCalls: string[] = []
  const refused: string[] = []
  page.on('request', (request) => {
    if (/\/api\/trpc\/[^?]*admin\./.test(request.url())) adminCalls.push(request.url())
  })
  page.on('response', (response) => {
    if (response.status() === 403) refused.push(response.url())
  })
  await signIn('teacher')
  await page.goto('/admin/pupils')
  await expect(page.getByRole('heading', { level: 1, name: 'Manage School' })).toBeVisible()
  await expect(page.getByText('You do not have access to this page.')).toBeVisible()
  // A moment for any late query to go out.
  await page.waitForLoadState('networkidle')
  expect(adminCalls).toEqual([])
  expect(refused).toEqual([])
})
