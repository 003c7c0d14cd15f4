// Every parent in their own language (issue 14, docs/translation.md), against a server of
// this file's own with the stub chat model: a parent opens the preferences link from a
// message, chooses Polish; the teacher then sends an assignment to the class, and that
// parent's e-mail arrives in Polish (the stub's translation), with the line saying it was
// translated automatically and the English original below. Another parent, still on
// English, gets the original only.
import { expect, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile, preferencesLinks, type Mail } from '../fixtures/smtp'
import { VISION_URL } from '../fixtures/ports'
import { USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

const VISION = VISION_URL
const servers = mailServersForFile(test, {
  VOICEMARK_CHAT_BASE_URL: `${VISION}/v1`,
  VOICEMARK_CHAT_MODEL: 'stub-chat',
  VOICEMARK_CHAT_API_KEY: 'stub-vision-key',
})

const PARENT = /^parent\..+@families\.test$/
const NOTICE_PL = 'Ta wiadomość została przetłumaczona automatycznie. Oryginał (po angielsku) znajduje się poniżej.'
const NOTICE_EN = 'This message was translated automatically. The original (English) is below.'

test('a parent who chose Polish gets the assignment in Polish with the English below', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const { mail } = await servers()
  const run = Date.now().toString(36)
  const message = `Trip letters ${run}`
  const assignment = `Fractions ${run}`
  const toParent = (subject: string) => (m: Mail) => m.subject === subject && PARENT.test(m.to[0] ?? '')

  // The teacher sends a message now to Year 8 Maths, pupils and parents.
  await page.goto('/login')
  await submitLogin(page, USERS.teacher)
  await expect(page).not.toHaveURL(/\/login/)
  await page.goto('/notifications/create?type=GENERAL')
  await expect(page.getByRole('heading', { level: 1, name: 'New message' })).toBeVisible()
  await page.getByLabel('Title', { exact: true }).fill(message)
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.type('Please return the trip letter by Friday.')
  await page.getByRole('checkbox', { name: /Year 8 Maths/ }).check()
  await page.getByRole('button', { name: 'Send message' }).click()
  await expect(page).toHaveURL(/\/notifications\/[^/]+\/details$/)

  await expect.poll(() => mail.messages.filter(toParent(message)).length, { timeout: 60_000 }).toBeGreaterThan(1)
  const [first, second] = mail.messages.filter(toParent(message))
  const polishParent = first.to[0]
  const englishParent = second.to[0]

  // The parent chooses Polish (and assignment e-mails at once) from the link in it.
  const parentContext = await browser.newContext()
  const parent = await parentContext.newPage()
  await parent.goto(preferencesLinks(first)[0])
  await expect(parent.getByRole('heading', { level: 1, name: 'E-mail preferences' })).toBeVisible()
  await parent.getByRole('switch', { name: 'Assignments and feedback' }).check()
  await parent.getByLabel('How often').selectOption('IMMEDIATELY')
  await parent.getByLabel('Language').selectOption({ label: 'Polish' })
  await parent.getByRole('button', { name: 'Save preferences' }).click()
  await expect(parent.getByText('Your preferences are saved.')).toBeVisible()
  await parentContext.close()

  // The other parent, on English, also wants assignments at once.
  const otherContext = await browser.newContext()
  const other = await otherContext.newPage()
  await other.goto(preferencesLinks(second)[0])
  await other.getByRole('switch', { name: 'Assignments and feedback' }).check()
  await other.getByLabel('How often').selectOption('IMMEDIATELY')
  await expect(other.getByLabel('Language')).toHaveValue('en')
  await other.getByRole('button', { name: 'Save preferences' }).click()
  await expect(other.getByText('Your preferences are saved.')).toBeVisible()
  await otherContext.close()

  // The teacher sends an assignment to the same class, for pupils and parents.
  await page.goto('/notifications/create?type=ASSIGNMENT')
  await expect(page.getByRole('heading', { level: 1, name: 'New assignment' })).toBeVisible()
  await page.getByLabel('Title', { exact: true }).fill(assignment)
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.type('Finish the fractions worksheet, questions 1 to 12.')
  const due = new Date(Date.now() + 7 * 24 * 3600_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  await page
    .getByLabel('Due date')
    .fill(`${due.getFullYear()}-${pad(due.getMonth() + 1)}-${pad(due.getDate())}T${pad(due.getHours())}:${pad(due.getMinutes())}`)
  await page.getByLabel('Parents', { exact: true }).check()
  await page.getByRole('checkbox', { name: /Year 8 Maths/ }).check()
  await page.getByRole('button', { name: 'Send assignment' }).click()
  await expect(page).toHaveURL(/\/notifications\/[^/]+\/details$/)

  const polishSubject = `Zadanie: ${assignment}`
  const toPolish = () => mail.messages.find((m) => m.to[0] === polishParent && m.subject === polishSubject)
  await expect.poll(() => toPolish(), { timeout: 60_000, intervals: [250, 500] }).toBeTruthy()
  const text = toPolish()!.text
  const order = [
    'Wiadomość po polsku.',
    'Finish the fractions worksheet',
    NOTICE_PL,
    NOTICE_EN,
    // The English heading and body come last (the translated heading also holds the title).
    `\n${assignment}\n`,
    'Finish the fractions worksheet, questions 1 to 12.',
  ].map((part, i) => (i >= 4 ? text.lastIndexOf(part) : text.indexOf(part)))
  expect(order.every((at) => at >= 0), text).toBe(true)
  expect(order[0] < order[2] && order[2] < order[3] && order[3] < order[4] && order[4] < order[5], text).toBe(true)
  expect(toPolish()!.html).toContain('lang="en"')

  // The parent still on English gets the original only.
  const toEnglish = () => mail.messages.find((m) => m.to[0] === englishParent && m.subject === assignment)
  await expect.poll(() => toEnglish(), { timeout: 30_000 }).toBeTruthy()
  expect(toEnglish()!.text).not.toContain(NOTICE_EN)
})
