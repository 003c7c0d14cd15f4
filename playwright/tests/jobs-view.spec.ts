// The background jobs view (/api/bull), on a server of this file's own whose e-mail goes to
// an SMTP port nobody listens on (retries without backoff): a password-reset e-mail fails for
// real. The superadmin opens 'Background jobs' from the sidebar (a new tab), sees the failed
// job with its error, starts the mail server and clicks Retry: the job leaves the failed list
// and the e-mail arrives. A teacher gets 404; axe finds no serious or critical violation.
import AxeBuilder from '@axe-core/playwright'

import { expect, test } from '../fixtures/auth'
import { freePort, startMailSink, startVoicemark, type MailSink, type Voicemark } from '../fixtures/smtp'
import { USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

let smtpPort = 0
let server: Promise<Voicemark> | undefined
let mail: MailSink | undefined

/** This file's server, started on first use (fixtures resolve before beforeAll hooks). */
const start = () =>
  (server ??= (async () => {
    smtpPort = await freePort()
    return startVoicemark({ smtpPort, env: { VOICEMARK_JOB_BACKOFF_SECONDS: '0' } })
  })())

test.afterAll(async () => {
  await (await server)?.stop()
  await mail?.stop()
})

// eslint-disable-next-line no-empty-pattern
test.use({ baseURL: async ({}, use) => use((await start()).baseURL) })

test('the superadmin retries a failed e-mail job from the jobs view', async ({ page, signIn }) => {
  test.setTimeout(90_000)
  // A real failure: the reset e-mail cannot reach the SMTP server, five times.
  const reset = await page.request.post('/api/trpc/account.requestPasswordReset', {
    data: { json: { email: USERS.teacher } },
  })
  expect(reset.ok()).toBe(true)

  await signIn('superadmin')
  await page.goto('/')
  const link = page.getByRole('link', { name: /Background jobs/ })
  await expect(link).toHaveAttribute('target', '_blank')
  const [jobs] = await Promise.all([page.waitForEvent('popup'), link.click()])
  await expect(jobs).toHaveURL(/\/api\/bull$/)
  await expect(jobs.getByRole('heading', { level: 1, name: 'Background jobs' })).toBeVisible()
  await expect(jobs).toHaveTitle('Background jobs')

  const failed = jobs.getByRole('table', { name: 'Failed jobs' })
  const row = failed.getByRole('row').filter({ hasText: 'email.account' })
  await expect(async () => {
    await jobs.reload()
    await expect(row).toBeVisible({ timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
  await expect(row).toContainText('5 of 5')
  await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/)
  // The address is masked.
  await expect(row).toContainText('t•••@northbridge.test')
  await expect(row).not.toContainText(USERS.teacher)
  const counts = jobs.getByRole('table', { name: 'Jobs by kind and state' })
  await expect(counts.getByRole('row', { name: /email\.account/ })).toBeVisible()
  // The product's frame: the way back to the app, and on a phone the tables scroll in their
  // own frames (the page is no wider than the screen) with kind, attempts and actions first.
  await expect(jobs.getByRole('link', { name: 'Back to Voicemark' })).toHaveAttribute('href', '/')
  await expect(failed.getByRole('columnheader')).toHaveText([
    'Kind', 'Attempts', 'Actions', 'Last error', 'Created', 'Updated', 'Payload',
  ])
  await jobs.setViewportSize({ width: 360, height: 740 })
  expect(await jobs.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  await expect(row.getByRole('button', { name: 'Retry' })).toBeInViewport()

  expect(
    (await new AxeBuilder({ page: jobs }).analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    ),
  ).toEqual([])

  // The mail server comes back; Retry sends the e-mail.
  mail = await startMailSink(smtpPort)
  await row.getByRole('button', { name: 'Retry' }).click()
  await expect(jobs).toHaveURL(/\/api\/bull$/)
  await expect(jobs.getByRole('heading', { level: 1, name: 'Background jobs' })).toBeVisible()
  await expect(failed.getByRole('row').filter({ hasText: 'email.account' })).toHaveCount(0)
  await expect.poll(() => mail!.messages.filter((m) => m.to.includes(USERS.teacher)).length, { timeout: 30_000 }).toBe(1)
  await jobs.reload()
  await expect(jobs.getByText('No failed jobs.')).toBeVisible()
})

test('a teacher gets 404 from the jobs view', async ({ page, signIn }) => {
  await signIn('teacher')
  const response = await page.goto('/api/bull')
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { name: 'Background jobs' })).toHaveCount(0)
})
