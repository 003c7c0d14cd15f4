// Manage School › Privacy on the shared demo server: the admin adds a pupil of this test's
// own (the demo pupils other files use are left alone), opens their profile, exports their
// data (a real download: a zip whose entries are read here) and erases them through the
// confirmation dialog; the pupil leaves the pupil list, and the profile-view log shows the
// view. axe finds no serious or critical violation on the tab.
import fs from 'node:fs'
import zlib from 'node:zlib'

import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'

/** The entries of a zip (stored or deflated), read from its central directory. */
function unzip(buffer: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>()
  let end = buffer.length - 22
  while (end >= 0 && buffer.readUInt32LE(end) !== 0x06054b50) end -= 1
  if (end < 0) throw new Error('not a zip')
  const count = buffer.readUInt16LE(end + 10)
  let at = buffer.readUInt32LE(end + 16)
  for (let i = 0; i < count; i += 1) {
    const method = buffer.readUInt16LE(at + 10)
    const size = buffer.readUInt32LE(at + 20)
    const nameLength = buffer.readUInt16LE(at + 28)
    const extra = buffer.readUInt16LE(at + 30)
    const comment = buffer.readUInt16LE(at + 32)
    const local = buffer.readUInt32LE(at + 42)
    const name = buffer.subarray(at + 46, at + 46 + nameLength).toString('utf8')
    const start = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28)
    const data = buffer.subarray(start, start + size)
    entries.set(name, method === 8 ? zlib.inflateRawSync(data) : Buffer.from(data))
    at += 46 + nameLength + extra + comment
  }
  return entries
}

async function rpc(page: Page, path: string, input: unknown) {
  const response = await page.request.post(`/api/trpc/${path}`, { data: { json: input } })
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true)
  return (await response.json()).result.data.json
}

test('an admin exports and erases a pupil, and sees who opened their profile', async ({ page, signIn }) => {
  test.setTimeout(90_000)
  const surname = `Privacy${Date.now().toString(36)}`
  const name = `Erin ${surname}`
  await signIn('admin')
  const pupil = await rpc(page, 'admin.savePupil', {
    id: null, forename: 'Erin', surname, email: null, parentEmail: `parent.${surname.toLowerCase()}@families.test`,
    upn: null, yearGroupId: null, formGroupId: null, classIds: [],
  })
  await rpc(page, 'student.addComment', { studentId: pupil.id, comment: 'Asked for a copy of her data.' })

  // Opening the profile is recorded.
  await page.goto(`/students/${pupil.id}`)
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()

  await page.goto('/admin/privacy')
  await expect(page.getByRole('heading', { level: 1, name: 'Manage School' })).toBeVisible()
  await expect(
    page.getByRole('navigation', { name: 'Manage School sections' }).getByRole('link', { name: 'Privacy' }),
  ).toHaveAttribute('aria-current', 'page')
  const views = page.getByRole('region', { name: 'Profile views' })
  await expect(views.getByRole('row').filter({ hasText: name }).first()).toContainText(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/)

  await page.getByLabel('Find a pupil').fill(surname)
  await page.getByRole('button', { name: `Choose ${name}` }).click()
  const chosen = page.getByRole('region', { name: 'Chosen pupil' })
  await expect(chosen).toContainText(name)

  expect(
    (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
  ).toEqual([])

  // Export: one zip with the documents.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    chosen.getByRole('link', { name: 'Export data' }).click(),
  ])
  expect(download.suggestedFilename()).toBe(`${name} - data export.zip`)
  const zip = unzip(fs.readFileSync(await download.path()))
  expect([...zip.keys()]).toEqual(
    expect.arrayContaining(['profile.json', 'contacts.json', 'submissions.json', 'comments.json', 'audit-log.json']),
  )
  expect(JSON.parse(zip.get('profile.json')!.toString()).surname).toBe(surname)
  expect(JSON.parse(zip.get('comments.json')!.toString())[0].comment).toBe('Asked for a copy of her data.')

  // Erase, after a confirmation naming the pupil.
  await chosen.getByRole('button', { name: 'Erase pupil' }).click()
  const dialog = page.getByRole('dialog', { name: `Erase ${name}?` })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: 'Erase pupil' }).click()
  await expect(page.getByText(`${name} was erased.`, { exact: true })).toBeVisible()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('button', { name: `Choose ${name}` })).toHaveCount(0)
  await expect(views.getByRole('row').filter({ hasText: 'Erased pupil' }).first()).toBeVisible()

  await page.goto('/admin/pupils')
  await page.getByLabel('Search pupils').fill(surname)
  await expect(page.getByRole('status').filter({ hasText: '0 pupils' })).toBeVisible()
  await expect(page.getByText(name)).toHaveCount(0)
})
