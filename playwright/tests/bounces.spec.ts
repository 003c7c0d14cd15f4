// Refused addresses (issue 29 item 2, docs/bounces.md), against a server of this file's own:
// a pupil's parent address refused by its mail server shows on the pupil's record and in
// Manage School's Pupils tab (for schools with or without an MIS); saving the pupil's record
// lifts the refusal. axe on the pupil's record.
import AxeBuilder from '@axe-core/playwright'

import { expect, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile } from '../fixtures/smtp'
import { PASSWORD, USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

const servers = mailServersForFile(test)

test("a refused parent address shows on the pupil's record until the admin saves it again", async ({ page }) => {
  test.setTimeout(120_000)
  const { server } = await servers()
  const row = server.sql(
    `SELECT id || '|' || forename || ' ' || surname || '|' || parent_email FROM students
     WHERE parent_email IS NOT NULL AND school_id = (SELECT school_id FROM users WHERE email = '${USERS.admin}')
     ORDER BY surname, forename LIMIT 1`,
  )
  const [id, name, address] = row.split('|')
  expect(address).toContain('@')
  server.sql(
    `INSERT INTO address_refusals (address, reason, refused_at) VALUES ('${address.toLowerCase()}', '550 5.1.1 User unknown', '2026-11-30 10:00:00')`,
  )
  const sentence = `Parent's address ${address.toLowerCase()} was refused by their mail server on 30/11/2026: 550 5.1.1 User unknown. Nothing more is sent to it until the address is changed or saved again.`

  await page.goto('/login')
  await submitLogin(page, USERS.admin, PASSWORD)
  await expect(page).not.toHaveURL(/\/login/)
  await page.goto(`/students/${id}`)
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await expect(page.getByText(sentence)).toBeVisible()
  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
  await page.setViewportSize({ width: 360, height: 800 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  await page.setViewportSize({ width: 1280, height: 800 })

  // Manage School › Pupils lists it; the edit form says it; saving the record lifts it.
  await page.goto('/admin/pupils')
  const list = page.getByRole('list', { name: 'Refused e-mail addresses' })
  await expect(list).toContainText(name)
  await expect(list).toContainText(sentence)
  await page.getByLabel('Search pupils').fill(name.split(' ')[1])
  await page.getByRole('button', { name: `Edit ${name}` }).click()
  await expect(page.getByRole('status').filter({ hasText: sentence })).toBeVisible()
  await page.getByRole('button', { name: /^Save / }).click()
  await expect(list).toHaveCount(0)
  expect(server.sql(`SELECT COUNT(*) FROM address_refusals WHERE address = '${address.toLowerCase()}'`)).toBe('0')
  await page.goto(`/students/${id}`)
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  await expect(page.getByText(sentence)).toHaveCount(0)
})
