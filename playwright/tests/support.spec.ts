// The Support pages: help articles searched and read; the contact form checks its fields,
// and a sent message reaches the support address over real SMTP with the sender's school,
// plan and page, with a copy to the sender. /support is the pupil area's admin-only page.
import AxeBuilder from '@axe-core/playwright'

import { expect, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile } from '../fixtures/smtp'
import { USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

const servers = mailServersForFile(test)

test('a leader finds an article and writes to support, who receive it with context', async ({ page }) => {
  test.setTimeout(120_000)
  const { mail } = await servers()
  const subject = `Dictation question ${Date.now().toString(36)}`

  await page.goto('/login')
  await submitLogin(page, USERS.admin)
  await expect(page).not.toHaveURL(/\/login/)
  await page.goto('/leaders/support')
  await expect(page.getByRole('heading', { level: 1, name: 'Support' })).toBeVisible()

  const search = page.getByLabel('Search help')
  await search.fill('PASSWORD')
  const articles = page.getByRole('list', { name: 'Articles' })
  await expect(articles.getByRole('button', { name: 'Your account and e-mail settings' })).toBeVisible()
  await expect(articles.getByRole('button', { name: 'Photos read by AI' })).toHaveCount(0)
  await articles.getByRole('button', { name: 'Your account and e-mail settings' }).click()
  await expect(page.getByRole('heading', { level: 3, name: 'Your account and e-mail settings' })).toBeVisible()
  await expect(page.getByText('at least 8 characters, with at least 1 number')).toBeVisible()
  await search.fill('zzzz nothing')
  await expect(page.getByText('No article matches your search.')).toBeVisible()

  const form = page.getByRole('form', { name: 'Contact support' })
  await form.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByText('Enter a subject.')).toBeVisible()
  await expect(page.getByText('Write your message.')).toBeVisible()
  await expect(form.getByLabel('Subject')).toHaveAttribute('aria-invalid', 'true')

  await form.getByLabel('Subject').fill(subject)
  await form.getByLabel('Message').fill('Dictation stops after a minute on my laptop.')
  await form.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByText(/Your message has been sent to .+\. A copy is on its way to admin@northbridge\.test\./)).toBeVisible()
  await expect(form.getByLabel('Subject')).toHaveValue('')

  const toSupport = () => mail.messages.find((m) => m.subject.endsWith(`Support: ${subject}`))
  await expect.poll(() => toSupport(), { timeout: 60_000, intervals: [250, 500] }).toBeTruthy()
  const message = toSupport()!
  expect(message.text).toContain('admin@northbridge.test')
  expect(message.text).toContain('Page: /leaders/support')
  expect(message.text).toMatch(/School: \S/)
  expect(message.text).toMatch(/Plan: (Basic|Pro)/)
  expect(message.text).toContain('Dictation stops after a minute on my laptop.')
  const copy = () => mail.messages.find((m) => m.subject === `Your message to Voicemark support: ${subject}`)
  await expect.poll(() => copy()?.to, { timeout: 30_000 }).toEqual(['admin@northbridge.test'])

  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])
})

test('/support is Help & Support for admins of the pupil area and closed to teachers', async ({ page }) => {
  await page.goto('/login')
  await submitLogin(page, USERS.admin)
  await expect(page).not.toHaveURL(/\/login/)
  await page.goto('/support')
  await expect(page.getByRole('heading', { level: 1, name: 'Help & Support' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: 'Help articles' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: 'Contact support' })).toBeVisible()

  await page.context().clearCookies()
  await page.goto('/login')
  await submitLogin(page, USERS.teacher)
  await expect(page).not.toHaveURL(/\/login/)
  await page.goto('/support')
  await expect(page.getByText('You do not have access to this page.')).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: 'Contact support' })).toHaveCount(0)
})
