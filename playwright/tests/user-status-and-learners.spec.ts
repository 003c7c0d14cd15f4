// Item 12 of issue 26: the user status list is exactly active / inactive / pending on every
// page (Manage School's staff tab and Manage Users agree, from one rule), and a BUSINESS
// organisation reads "learners" where a school reads "pupils" (docs/organisations.md).
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'
import { USERS } from '../fixtures/users'

async function rpc(page: Page, path: string, input: unknown) {
  const response = await page.request.post(`/api/trpc/${path}`, { data: { json: input } })
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true)
  return (await response.json()).result.data.json
}

test('Manage School and Manage Users show the same three statuses for the same people', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/admin/staff')
  const staff = page.getByRole('table', { name: 'Staff' })
  const statusOf = (email: string) => staff.getByRole('row').filter({ hasText: email }).getByRole('cell').nth(3)
  // Disabled is inactive; invited / not activated is pending (not "Inactive").
  await expect(statusOf(USERS.disabled)).toHaveText('Inactive')
  await expect(statusOf(USERS.notActivated)).toHaveText('Pending')
  await expect(statusOf(USERS.teacher)).toHaveText('Active')
  const shown = new Set((await staff.getByRole('row').locator('td:nth-child(4)').allTextContents()).map((t) => t.trim()))
  expect([...shown].every((status) => ['Active', 'Inactive', 'Pending'].includes(status)), [...shown].join(', ')).toBe(true)

  await page.goto('/leaders/users')
  const users = page.getByRole('row')
  await expect(users.filter({ hasText: USERS.disabled }).getByText('Inactive', { exact: true })).toBeVisible()
  await expect(users.filter({ hasText: USERS.notActivated }).getByText('Pending', { exact: true })).toBeVisible()
  await expect(users.filter({ hasText: USERS.teacher }).getByText('Active', { exact: true })).toBeVisible()
})

test('a business organisation reads "learners" instead of "pupils"', async ({ page, signIn }) => {
  await signIn('superadmin')
  const name = `Kestrel Training ${Date.now().toString(36)}`
  const org = await rpc(page, 'organisation.save', {
    id: null,
    name,
    postcode: null,
    orgType: 'BUSINESS',
    seats: null,
    plan: 'Basic',
    redirectToLeaders: false,
    trustId: null,
    newTrustName: null,
  })
  await rpc(page, 'organisation.switch', { schoolId: org.id })

  await page.goto('/admin')
  await expect(page.getByRole('heading', { level: 1, name: 'Manage School' })).toBeVisible()
  const sections = page.getByRole('navigation', { name: 'Manage School sections' })
  await expect(sections.getByRole('link', { name: 'Learners', exact: true })).toBeVisible()
  await expect(sections.getByRole('link', { name: 'Pupils' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Add learner' })).toBeVisible()
  await expect(page.getByLabel('Search learners')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Import learners from a CSV file' })).toBeVisible()

  await page.goto('/leaders/tasks')
  await expect(page.getByRole('link', { name: 'For learners' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'For pupils' })).toHaveCount(0)
  await expect(page.getByText(/\bpupils?\b/i)).toHaveCount(0)

  // A school still reads "pupils".
  const list = await page.request.get('/api/trpc/organisation.adminList')
  expect(list.ok()).toBe(true)
  const northbridge = ((await list.json()).result.data.json as { id: string; name: string }[]).find(
    (o: { name: string }) => o.name === 'Northbridge Academy',
  )
  if (!northbridge) throw new Error('Northbridge Academy is not in the organisation list')
  await rpc(page, 'organisation.switch', { schoolId: northbridge.id })
  await page.goto('/leaders/tasks')
  await expect(page.getByRole('link', { name: 'For pupils' })).toBeVisible()
})
