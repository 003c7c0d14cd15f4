// The AI voice assistant in the top bar (issue 14), against a server of this file's own with
// the stub chat model (stubs/vision-server.mjs: a scripted agent that calls the `hand_ins`
// and `draft_message` tools in OpenAI's streamed function-calling format) and the stub
// speech server's scripted speaker (stubs/speech-server.mjs: under /scripts/<name> the fake
// microphone "says" exactly the phrase this file sets, then silence).
//
// The teacher sends an assignment to Year 8 Maths; one pupil hands in from the e-mail. The
// teacher asks by voice who has not handed in: the streamed answer names exactly the other
// nineteen. A typed follow-up drafts a message to their parents, which opens in the editor
// with its title, text, audience and pupils chosen, and nothing sent. Then: the history
// (Open, Ask again, Delete), axe on the open panel, the panel without a chat model, and a
// refusal shown under its question.
import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'
import { scriptedSpeechUrl, scriptSpeech } from '../fixtures/microphone'
import { VISION_URL } from '../fixtures/ports'
import { mailServersForFile, submissionLink } from '../fixtures/smtp'

test.describe.configure({ mode: 'serial' })

const VISION = VISION_URL
const QUESTION = 'who has not handed in the fractions assignment?'
const FOLLOW_UP = 'Write a message to those parents'
const DESCRIPTION = 'Ask about your classes, assignments and feedback. Answers use only what you can see.'
const DEFAULT_ANSWER = 'I can answer questions about your classes, assignments, submissions and feedback.'
// The speaker is this worker's own: the file may run in the chromium and postgres projects at once.
const SPEAKER = `assistant-${process.pid}-${Date.now().toString(36)}`

const servers = mailServersForFile(test, {
  VOICEMARK_CHAT_BASE_URL: `${VISION}/v1`,
  VOICEMARK_CHAT_MODEL: 'stub-chat',
  VOICEMARK_CHAT_API_KEY: 'stub-vision-key',
  VOICEMARK_DEEPGRAM_URL: scriptedSpeechUrl(SPEAKER),
  VOICEMARK_DEEPGRAM_API_KEY: 'stub-deepgram-key',
})

test.beforeAll(async () => {
  await scriptSpeech(SPEAKER, [QUESTION])
})

const PUPIL = /^([a-z]+)\.([a-z]+)(\d+)@pupils\.northbridge\.test$/
const capital = (s: string) => s[0].toUpperCase() + s.slice(1)
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `datetime-local` text for now + `days` (browser and this process share the time zone). */
function localInput(days: number): string {
  const d = new Date(Date.now() + days * 24 * 3600_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

async function seriousViolations(page: Page, include: string) {
  const results = await new AxeBuilder({ page }).include(include).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
}

/** Opens the assistant from the header; resolves to its sheet once the form is there. */
async function openAssistant(page: Page): Promise<Locator> {
  await page.getByRole('banner').getByRole('button', { name: 'AI assistant' }).click()
  const panel = page.getByRole('dialog', { name: 'AI assistant' })
  await expect(panel).toBeVisible()
  await expect(panel.getByText(DESCRIPTION)).toBeVisible()
  await expect(panel.getByLabel('Your question')).toBeVisible()
  return panel
}

/** Waits until the answer in progress has ended (the form takes a question again). */
async function answered(panel: Locator) {
  await expect(panel.getByRole('button', { name: 'Ask', exact: true })).toBeEnabled({ timeout: 30_000 })
}

async function chatRequests(): Promise<{ kind: string; prompt: string; lastRole?: string | null }[]> {
  return (await fetch(`${VISION}/chat-requests`)).json()
}

test('asked by voice who has not handed in, it names them; a follow-up drafts a message to their parents', async ({
  page,
  browser,
  signIn,
}) => {
  test.setTimeout(240_000)
  const { mail } = await servers()
  const run = Date.now().toString(36)
  const title = `Fractions ${run}`
  let notificationId = ''

  await test.step('the teacher sends an assignment to Year 8 Maths', async () => {
    await signIn('teacher')
    await page.goto('/notifications/create?type=ASSIGNMENT')
    await expect(page.getByRole('heading', { level: 1, name: 'New assignment' })).toBeVisible()
    await page.getByLabel('Title', { exact: true }).fill(title)
    await page.getByRole('textbox', { name: 'Message' }).click()
    await page.keyboard.type('Finish the fractions worksheet, questions 1 to 12.')
    await page.getByLabel('Due date').fill(localInput(7))
    await page.getByRole('checkbox', { name: /Year 8 Maths/ }).check()
    await expect(page.getByText('20 pupils will receive this.')).toBeVisible()
    await page.getByRole('button', { name: 'Send assignment' }).click()
    await expect(page).toHaveURL(/\/notifications\/[^/]+\/details$/)
    notificationId = new URL(page.url()).pathname.split('/')[2]
  })

  const pupilMails = () => mail.messages.filter((m) => m.subject === `Assignment: ${title}` && PUPIL.test(m.to[0] ?? ''))
  await expect.poll(() => pupilMails().length, { timeout: 60_000, intervals: [250, 500] }).toBe(20)

  // One pupil hands in from their e-mail; the other nineteen do not.
  const handedInMail = pupilMails()[0]
  const [, forename, surname] = PUPIL.exec(handedInMail.to[0])!
  const handedIn = `${capital(forename)} ${capital(surname)}`
  await test.step(`${handedIn} hands in`, async () => {
    const pupilContext = await browser.newContext()
    const pupilPage = await pupilContext.newPage()
    await pupilPage.goto(submissionLink(handedInMail)!)
    await expect(pupilPage.getByRole('heading', { level: 1, name: title })).toBeVisible()
    await pupilPage.getByLabel('Your answer').fill('1/2 + 1/4 = 3/4, and the rest are on the sheet.')
    await pupilPage.getByRole('button', { name: 'Hand in' }).click()
    await expect(pupilPage.getByText('Your work has been handed in.').first()).toBeVisible()
    await pupilContext.close()
  })

  // Who received it, as the teacher's own Recipients tab lists them.
  await page.goto(`/notifications/${notificationId}/recipients`)
  const recipientCells = page.getByRole('table', { name: 'Recipients' }).locator('tbody tr > td:first-child')
  await expect(recipientCells).toHaveCount(20)
  const recipients = (await recipientCells.allInnerTexts()).map((name) => name.trim())
  expect(recipients).toContain(handedIn)
  const notHandedIn = recipients.filter((name) => name !== handedIn).sort()
  expect(notHandedIn).toHaveLength(19)

  let panel!: Locator
  await test.step('the teacher asks by voice', async () => {
    panel = await openAssistant(page)
    await panel.getByRole('button', { name: 'Ask by voice' }).click()
    // The sheet gives way to the live dictation drawer, worded for a question.
    await expect(panel).toBeHidden()
    const drawer = page.getByRole('dialog', { name: 'Ask the assistant' })
    await expect(drawer).toBeVisible()
    await expect(drawer.getByText('Speak your question; the transcript appears as you talk.')).toBeVisible()
    await expect(drawer.getByTestId('transcript')).toHaveText(QUESTION, { timeout: 20_000 })
    await drawer.getByRole('button', { name: 'Stop' }).click()
    const askButton = drawer.getByRole('button', { name: 'Ask the assistant', exact: true })
    await expect(askButton).toBeEnabled()
    await expect(drawer.getByRole('button', { name: 'Insert into feedback' })).toHaveCount(0)
    await askButton.click()
    await expect(drawer).toBeHidden()
  })

  const conversation = panel.getByRole('region', { name: 'Conversation' })
  await test.step('the answer streams in and names exactly the pupils who have not handed in', async () => {
    await expect(panel).toBeVisible()
    await expect(conversation).toContainText(QUESTION)
    // Names hold no full stop, so the sentence is complete once its own has arrived.
    const sentence = new RegExp(`(\\d+) pupils have not handed in ${escapeRegExp(title)}: ([^.\\n]+)\\.`)
    await expect(conversation).toContainText(sentence, { timeout: 30_000 })
    await answered(panel)
    const [, count, names] = sentence.exec(await conversation.innerText())!
    expect(Number(count)).toBe(19)
    expect(names.split(', ').sort()).toEqual(notHandedIn)
    expect(names).not.toContain(handedIn)
    // The model was given the tool's result for this assignment.
    const requests = await chatRequests()
    expect(requests.some((r) => r.kind === 'assistant' && r.lastRole === 'tool' && r.prompt.includes(title))).toBe(true)
  })

  await test.step('a typed follow-up drafts a message to their parents', async () => {
    const field = panel.getByLabel('Your question')
    await field.fill(FOLLOW_UP)
    await field.press('Enter')
    await expect(field).toHaveValue('')
    await expect(conversation).toContainText(FOLLOW_UP)
    const card = panel.getByRole('article', { name: 'Draft message ready' })
    await expect(card).toBeVisible({ timeout: 30_000 })
    await expect(card).toContainText(`${title}: work not handed in`)
    await expect(card).toContainText('To the parents of: ')
    for (const name of notHandedIn) await expect(card).toContainText(name)
    await expect(card).not.toContainText(handedIn)
    await expect(conversation).toContainText('I have drafted a message to the parents of', { timeout: 30_000 })
    await answered(panel)
  })

  await test.step('the draft opens in the editor, with nothing sent', async () => {
    await panel.getByRole('button', { name: 'Open in editor' }).click()
    await expect(panel).toBeHidden()
    await expect(page).toHaveURL(/\/notifications\/create\?assistant=1$/)
    await expect(page.getByRole('heading', { level: 1, name: 'New message' })).toBeVisible()
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(`${title}: work not handed in`)
    const message = page.getByRole('textbox', { name: 'Message' })
    await expect(message).toContainText('Dear parent,')
    await expect(message).toContainText(`Your child has not yet handed in ${title}. Please remind them to hand it in.`)
    await expect(page.getByLabel('Parents', { exact: true })).toBeChecked()
    await expect(page.getByLabel('Pupils', { exact: true })).not.toBeChecked()
    // The nineteen pupils are chosen in the audience picker, and named above its list.
    const pupilBox = (name: string) => page.getByRole('checkbox', { name: new RegExp(`^${escapeRegExp(name)}(\\s|$)`) })
    for (const name of notHandedIn) await expect(pupilBox(name)).toBeChecked()
    await expect(pupilBox(handedIn)).not.toBeChecked()
    const chosen = page.locator('p').filter({ hasText: /^Selected \(19\):/ })
    await expect(chosen).toBeVisible()
    for (const name of notHandedIn) await expect(chosen).toContainText(name)
    await expect(page.getByText('19 pupils will receive this.')).toBeVisible()
    // The assistant sent nothing itself.
    expect(mail.messages.filter((m) => m.subject.includes('work not handed in'))).toEqual([])
  })
})

test('the history lists each question with Open, Ask again and Delete', async ({ page, signIn }) => {
  test.setTimeout(90_000)
  await servers()
  const question = `What can you help me with? ${Date.now().toString(36)}`
  await signIn('teacher')
  await page.goto('/notifications')
  const panel = await openAssistant(page)
  await panel.getByLabel('Your question').fill(question)
  await panel.getByRole('button', { name: 'Ask', exact: true }).click()
  const conversation = panel.getByRole('region', { name: 'Conversation' })
  await expect(conversation).toContainText(question)
  await expect(conversation).toContainText(DEFAULT_ANSWER, { timeout: 30_000 })
  await answered(panel)

  const history = panel.getByRole('region', { name: 'History' })
  const rows = history.getByRole('listitem').filter({ hasText: question })
  await expect(rows).toHaveCount(1)
  await expect(rows).toContainText(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/)
  const open = history.getByRole('button', { name: `Open "${question}"` })
  const askAgain = history.getByRole('button', { name: `Ask again "${question}"` })
  const remove = history.getByRole('button', { name: `Delete "${question}"` })
  await expect(open).toBeVisible()
  await expect(askAgain).toBeVisible()
  await expect(remove).toBeVisible()

  // A new conversation is empty; Open shows the stored question and answer.
  await panel.getByRole('button', { name: 'New conversation' }).click()
  await expect(conversation).toHaveCount(0)
  await open.click()
  await expect(conversation).toContainText(question)
  await expect(conversation).toContainText(DEFAULT_ANSWER)
  await expect(conversation).toContainText('From your history')

  // Ask again asks it anew, which keeps a second copy.
  await askAgain.click()
  await expect(conversation).not.toContainText('From your history')
  await expect(conversation).toContainText(DEFAULT_ANSWER, { timeout: 30_000 })
  await answered(panel)
  await expect(rows).toHaveCount(2)

  await remove.first().click()
  await expect(page.getByText('Question deleted.', { exact: true })).toBeVisible()
  await expect(rows).toHaveCount(1)
  await remove.click()
  await expect(rows).toHaveCount(0)
})

test('the open panel has no serious accessibility violation, in the leaders area too', async ({ page, signIn }) => {
  test.setTimeout(90_000)
  await servers()
  await signIn('admin')
  await page.goto('/leaders/settings')
  await expect(page.getByRole('heading', { level: 2, name: 'Password' })).toBeVisible()
  const panel = await openAssistant(page)
  // Nothing asked yet: suggested questions and an empty history.
  await expect(panel.getByRole('button', { name: 'Which submissions are still unmarked?' })).toBeVisible()
  await expect(panel.getByText('No questions yet.')).toBeVisible()
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([])

  // With a conversation and a history.
  await panel.getByLabel('Your question').fill('Hello')
  await panel.getByLabel('Your question').press('Enter')
  await expect(panel.getByRole('region', { name: 'Conversation' })).toContainText(DEFAULT_ANSWER, { timeout: 30_000 })
  await answered(panel)
  await expect(panel.getByRole('region', { name: 'History' }).getByRole('listitem')).toHaveCount(1)
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([])

  // Escape closes it and gives focus back to the header's button.
  await page.keyboard.press('Escape')
  await expect(panel).toBeHidden()
  await expect(page.getByRole('banner').getByRole('button', { name: 'AI assistant' })).toBeFocused()
})

test('without a chat model the panel says so in plain words, and offers no form', async ({ page, signIn }) => {
  await servers()
  // This file's server has a chat model, so system.features is rewritten to what a server
  // without VOICEMARK_CHAT_* answers (chat: false).
  await page.route(/\/api\/trpc\/[^?]*system\.features/, async (route) => {
    const response = await route.fetch()
    const paths = decodeURIComponent(new URL(route.request().url()).pathname.replace('/api/trpc/', '')).split(',')
    const body = (await response.json()) as { result: { data: { json: Record<string, unknown> } } }[]
    body[paths.indexOf('system.features')].result.data.json.chat = false
    await route.fulfill({ response, json: body })
  })
  await signIn('teacher')
  await page.goto('/')
  await page.getByRole('banner').getByRole('button', { name: 'AI assistant' }).click()
  const panel = page.getByRole('dialog', { name: 'AI assistant' })
  await expect(
    panel.getByText('The AI assistant is not switched on for your school yet. Ask your administrator.'),
  ).toBeVisible()
  await expect(panel).not.toContainText('VOICEMARK_')
  await expect(panel.getByLabel('Your question')).toHaveCount(0)
  await expect(panel.getByRole('button', { name: 'Ask by voice' })).toHaveCount(0)
})

test('a refusal is shown under its question, which can be asked again', async ({ page, signIn }) => {
  await servers()
  const sentence = 'The chat model is not configured on this server.'
  let calls = 0
  await page.route('**/api/assistant', async (route) => {
    calls += 1
    await route.fulfill({ status: 412, json: { error: sentence } })
  })
  await signIn('teacher')
  await page.goto('/')
  const panel = await openAssistant(page)
  await panel.getByLabel('Your question').fill('Which submissions are still unmarked in Year 8?')
  await panel.getByRole('button', { name: 'Ask', exact: true }).click()
  const conversation = panel.getByRole('region', { name: 'Conversation' })
  await expect(conversation.getByRole('alert')).toHaveText(sentence)
  await expect(conversation).toContainText('Which submissions are still unmarked in Year 8?')
  await conversation.getByRole('button', { name: 'Try again' }).click()
  await expect(conversation.getByRole('alert')).toHaveCount(2)
  expect(calls).toBe(2)
})
