// The public /preferences/{token} page, reached from a real e-mail: this file's own server
// (fresh demo data) sends a message to Year 8 Maths now, over SMTP to a server started here;
// a parent opens the link from their e-mail, turns assignment e-mails off and chooses weekly
// summaries, saves, and the choices stay after a reload. An unknown token says the link is
// invalid; axe finds no serious or critical violation.
import AxeBuilder from '@axe-core/playwright'

import { expect, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile, preferencesLinks } from '../fixtures/smtp'
import { USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

const servers = mailServersForFile(test)

test('a parent changes their e-mail preferences from the link in an e-mail', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const { mail, server } = await servers()
  const title = `Sports day ${Date.now().toString(36)}`

  // The teacher sends a message now (no send date) to a class, pupils and parents.
  await page.goto('/login')
  await submitLogin(page, USERS.teacher)
  await expect(page).not.toHaveURL(/\/login/)
  await page.goto('/notifications/create?type=GENERAL')
  await expect(page.getByRole('heading', { level: 1, name: 'New message' })).toBeVisible()
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.type('Sports day is on Friday: bring a water bottle.')
  await expect(page.getByLabel('Parents', { exact: true })).toBeChecked()
  await page.getByRole('checkbox', { name: /Year 8 Maths/ }).check()
  await expect(page.getByText('20 pupils will receive this.')).toBeVisible()
  await page.getByRole('button', { name: 'Send message' }).click()
  await expect(page).toHaveURL(/\/notifications\/[^/]+\/details$/)

  const toParent = () =>
    mail.messages.find((m) => m.subject === title && /^parent\..+@families\.test$/.test(m.to[0] ?? ''))
  await expect.poll(() => toParent(), { timeout: 60_000, intervals: [250, 500] }).toBeTruthy()
  const message = toParent()!
  const [link] = preferencesLinks(message)
  expect(link.startsWith(`${server.baseURL}/preferences/`)).toBe(true)

  // The parent, not signed in.
  const parentContext = await browser.newContext()
  const parent = await parentContext.newPage()
  await parent.goto(link)
  await expect(parent.getByRole('heading', { level: 1, name: 'E-mail preferences' })).toBeVisible()
  await expect(parent.getByText(message.to[0])).toBeVisible()
  const general = parent.getByRole('switch', { name: 'General messages' })
  const assignments = parent.getByRole('switch', { name: 'Assignments and feedback' })
  const frequency = parent.getByLabel('How often')
  await expect(general).toBeChecked()
  await expect(frequency).toHaveValue('IMMEDIATELY')

  const results = await new AxeBuilder({ page: parent }).analyze()
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
  expect(serious).toEqual([])

  await assignments.uncheck()
  await frequency.selectOption('WEEKLY')
  await parent.getByRole('button', { name: 'Save preferences' }).click()
  await expect(parent.getByText('Your preferences are saved.')).toBeVisible()

  await parent.reload()
  await expect(parent.getByRole('heading', { level: 1, name: 'E-mail preferences' })).toBeVisible()
  await expect(assignments).not.toBeChecked()
  await expect(general).toBeChecked()
  await expect(frequency).toHaveValue('WEEKLY')
  await expect(parent.getByText('Your preferences are saved.')).toHaveCount(0)

  // An unknown token.
  await parent.goto(`${server.baseURL}/preferences/not-a-real-token`)
  await expect(parent.getByText('This link is invalid.')).toBeVisible()
  await expect(parent.getByRole('button', { name: 'Save preferences' })).toHaveCount(0)
  await parentContext.close()
})
