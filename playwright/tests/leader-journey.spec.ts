// The leaders' journey of issue 11, end to end on a server of this file's own (fresh demo
// data; SQLite, and PostgreSQL in the `postgres` project) talking to the stub providers,
// which speak the real protocols (OpenAI-compatible chat and vision, Deepgram;
// fixtures/ports.ts): an admin builds a template with three questions; a colleague creates a task from
// it, uploads an audio file and a PDF, photographs a page of notes, records 20 seconds
// with the dictation drawer, sees the transcripts arrive, autofills, edits one answer and
// submits; then generates a report from two tasks and a voice note, saves it and downloads
// it as Word.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile } from '../fixtures/smtp'
import { SPEECH_URL, VISION_URL } from '../fixtures/ports'
import { USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

// The ports playwright.config.ts starts the stubs on.
const VISION = VISION_URL
const SPEECH = SPEECH_URL

const servers = mailServersForFile(test, {
  VOICEMARK_VISION_BASE_URL: `${VISION}/v1`,
  VOICEMARK_VISION_MODEL: 'stub-vision',
  VOICEMARK_VISION_API_KEY: 'stub-vision-key',
  VOICEMARK_DEEPGRAM_URL: SPEECH,
  VOICEMARK_DEEPGRAM_API_KEY: 'stub-deepgram-key',
})

const PHRASE = 'Good use of evidence in paragraph two.'
const run = Date.now().toString(36)
const TEMPLATE = `Walkthrough ${run}`
const QUESTIONS = ['What was the focus of the visit?', 'What went well?', 'What should happen next?']
const FIRST_TASK = `Year 7 walkthrough ${run}`
const SECOND_TASK = `Year 9 walkthrough ${run}`

async function signInAs(page: Page, email: string) {
  await page.context().clearCookies()
  await page.goto('/login')
  await submitLogin(page, email)
  await expect(page).not.toHaveURL(/\/login/)
}

async function serious(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, nodes }) => ({ id, targets: nodes.map((n) => n.target) }))
}

/** A short valid WAV: `seconds` of a quiet tone, 8 kHz mono. */
function wav(seconds: number): Buffer {
  const rate = 8000
  const samples = rate * seconds
  const buffer = Buffer.alloc(44 + samples * 2)
  buffer.write('RIFF', 0)
  buffer.writeUInt32LE(36 + samples * 2, 4)
  buffer.write('WAVEfmt ', 8)
  buffer.writeUInt32LE(16, 16)
  buffer.writeUInt16LE(1, 20)
  buffer.writeUInt16LE(1, 22)
  buffer.writeUInt32LE(rate, 24)
  buffer.writeUInt32LE(rate * 2, 28)
  buffer.writeUInt16LE(2, 32)
  buffer.writeUInt16LE(16, 34)
  buffer.write('data', 36)
  buffer.writeUInt32LE(samples * 2, 40)
  for (let i = 0; i < samples; i++) buffer.writeInt16LE(Math.round(800 * Math.sin(i / 8)), 44 + i * 2)
  return buffer
}

/** A one-page PDF whose text layer says `text`. */
function pdf(text: string): Buffer {
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(out.length)
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = out.length
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

function contentItem(page: Page, name: string | RegExp) {
  return page.getByRole('list', { name: 'Task content' }).getByRole('listitem').filter({ hasText: name })
}

async function newTask(page: Page, title: string) {
  await page.goto('/leaders/tasks')
  await page.getByRole('link', { name: 'New task' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'New task' })).toBeVisible()
  await page.getByLabel('Title').fill(title)
  await page.getByRole('radio', { name: new RegExp(TEMPLATE) }).check()
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/leaders\/tasks\/[^/]+\/edit$/)
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
}

test('an admin builds a template with three questions', async ({ page }) => {
  await servers()
  await signInAs(page, USERS.admin)
  await page.goto('/leaders/templates/create')
  await expect(page.getByRole('heading', { level: 1, name: 'Create template' })).toBeVisible()
  await page.getByLabel('Title').fill(TEMPLATE)
  await page.getByRole('radio', { name: /^School/ }).check()
  for (const [i, text] of QUESTIONS.entries()) {
    if (i > 0) await page.getByRole('button', { name: 'Add question' }).click()
    await page.getByLabel(`Question ${i + 1}`, { exact: true }).fill(text)
  }
  await page.getByRole('checkbox', { name: 'Question 1 required' }).check()
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: TEMPLATE })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Questions' }).getByRole('listitem')).toHaveCount(3)
})

test('a leader fills a task from an upload, a PDF, a photo and a recording, autofills and submits', async ({ page }) => {
  test.setTimeout(240_000)
  await servers()
  await signInAs(page, USERS.orgAdmin)
  await newTask(page, FIRST_TASK)
  const content = page.getByRole('region', { name: 'Content' })

  // An audio file and a PDF, uploaded with their progress shown.
  await content.getByLabel('Upload files').setInputFiles([
    { name: 'corridor.wav', mimeType: 'audio/wav', buffer: wav(2) },
    { name: 'visit-plan.pdf', mimeType: 'application/pdf', buffer: pdf('Focus on reading in Year 7') },
  ])

  // A page of handwritten notes, photographed and read by the vision model.
  await content.getByRole('button', { name: 'Take photos of handwritten notes' }).click()
  const analyser = page.getByRole('dialog', { name: 'Analyse photos' })
  await analyser.getByRole('button', { name: 'Take photo' }).click()
  await expect(analyser.getByText('1 of 10 photos')).toBeVisible()
  await expect(analyser.getByText(/^Preparing/)).toHaveCount(0)
  await analyser.getByRole('button', { name: 'Review photos' }).click()
  await expect(analyser.getByLabel('Instructions for the AI')).toHaveValue(/notes/i)
  await analyser.getByRole('button', { name: 'Confirm' }).click()
  await expect(analyser.getByRole('tab', { name: 'AI Response' })).toHaveAttribute('aria-selected', 'true')
  await expect(analyser.getByRole('textbox', { name: 'AI response' })).not.toHaveValue('')
  await analyser.getByRole('button', { name: 'Add to task' }).click()
  await expect(contentItem(page, /^Photo notes/)).toBeVisible()

  // Twenty seconds recorded with the dictation drawer (Chromium's fake microphone).
  await content.getByRole('button', { name: 'Start recording' }).click()
  const drawer = page.getByRole('dialog', { name: 'Live dictation' })
  await expect(drawer.getByTestId('transcript')).toContainText(PHRASE, { timeout: 20_000 })
  await page.waitForTimeout(20_000 - 3_000) // the recording's own length, not a wait for the app
  await drawer.getByRole('button', { name: 'Stop' }).click()
  await expect(drawer.getByTestId('connection-state')).toHaveText('closed')
  await drawer.getByRole('button', { name: 'Add to task' }).click()
  await expect(page.getByText('Recording added', { exact: true })).toBeVisible({ timeout: 20_000 })
  if (await drawer.isVisible()) await drawer.getByRole('button', { name: 'Close dictation' }).click()

  // The transcripts and the PDF's text arrive.
  await expect(contentItem(page, 'corridor.wav').getByLabel('State: Ready')).toBeVisible({ timeout: 30_000 })
  await expect(contentItem(page, 'corridor.wav')).toContainText(/Stub transcript of \d+ bytes of audio\/wav\./)
  await expect(contentItem(page, 'visit-plan.pdf').getByLabel('State: Ready')).toBeVisible({ timeout: 30_000 })
  await expect(contentItem(page, 'visit-plan.pdf')).toContainText('Focus on reading in Year 7')
  await expect(contentItem(page, /Recording/)).toContainText(PHRASE)
  await expect(page.getByRole('list', { name: 'Task content' }).getByRole('listitem')).toHaveCount(4)
  expect(await serious(page)).toEqual([])

  // Autofill: every answer streams into the form; the user edits one and submits.
  await page.getByRole('button', { name: 'Autofill Response' }).click()
  for (const [i, text] of QUESTIONS.entries()) {
    await expect(page.getByLabel(i === 0 ? `${text} (required)` : text, { exact: true })).toHaveValue(
      `For q${i + 1}: ${text} (from the task's content).`,
      { timeout: 20_000 },
    )
  }
  const next = page.getByLabel(QUESTIONS[2], { exact: true })
  await next.fill('Share the reading strategies at the next staff meeting.')
  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Task submitted.', { exact: true })).toBeVisible()
  await expect(page.getByText('Submitted', { exact: true })).toBeVisible()
  await page.reload()
  await expect(next).toHaveValue('Share the reading strategies at the next staff meeting.')
  await expect(page.getByLabel(`${QUESTIONS[0]} (required)`, { exact: true })).toHaveValue(
    `For q1: ${QUESTIONS[0]} (from the task's content).`,
  )
})

test('the leader generates a report from two tasks and a voice note and downloads it as Word', async ({ page }) => {
  test.setTimeout(120_000)
  await servers()
  await signInAs(page, USERS.orgAdmin)

  // A second task, answered by hand and saved as a draft.
  await newTask(page, SECOND_TASK)
  await page.getByLabel(`${QUESTIONS[0]} (required)`, { exact: true }).fill('Science practicals in Year 9.')
  await page.getByRole('button', { name: 'Save as draft' }).click()
  await expect(page.getByText('Draft saved.', { exact: true })).toBeVisible()

  // A voice note, filed like the recorder files it; filing queues its transcript.
  const api = page.request
  const call = async (path: string, input: unknown) => {
    const response = await api.post(`/api/trpc/${path}`, { data: { json: input } })
    expect(response.status(), await response.text()).toBe(200)
    return ((await response.json()) as { result: { data: { json: Record<string, unknown> } } }).result.data.json
  }
  const audio = wav(1)
  const ticket = (await call('leader.uploadVoiceNote', {
    filename: `Governors ${run}.wav`,
    contentType: 'audio/wav',
    size: audio.length,
  })) as { url: string; headers: Record<string, string>; key: string }
  expect((await api.put(ticket.url, { headers: ticket.headers, data: audio })).status()).toBe(200)
  await call('leader.transferVoiceNoteToPersonalFolder', { key: ticket.key })

  await page.goto('/leaders/report-generator')
  await expect(page.getByRole('heading', { level: 1, name: 'Report generator' })).toBeVisible()
  const form = page.locator('[data-tour="report-form"]')
  await form.getByRole('checkbox', { name: new RegExp(FIRST_TASK) }).check()
  await form.getByRole('checkbox', { name: new RegExp(SECOND_TASK) }).check()
  const note = form.getByRole('checkbox', { name: new RegExp(`Governors ${run}`) })
  // The transcript arrives from the job the filing queued (the list refreshes on reload).
  await expect(async () => {
    await page.reload()
    await expect(note).toBeEnabled({ timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
  await form.getByRole('checkbox', { name: new RegExp(FIRST_TASK) }).check()
  await form.getByRole('checkbox', { name: new RegExp(SECOND_TASK) }).check()
  await note.check()
  await form.getByLabel('Instructions', { exact: true }).fill('A short summary for governors.')
  await form.getByLabel('Title', { exact: true }).fill(`Autumn walkthroughs ${run}`)
  await form.getByRole('button', { name: 'Generate' }).click()

  const body = page.getByLabel('Report text')
  await expect(body).toHaveValue(new RegExp(`^# Autumn walkthroughs ${run}`), { timeout: 30_000 })
  await expect(body).toHaveValue(new RegExp(`- Task: ${FIRST_TASK}`))
  await expect(body).toHaveValue(new RegExp(`- Task: ${SECOND_TASK}`))
  await expect(body).toHaveValue(new RegExp(`- Voice note: Governors ${run}`))
  await expect(body).toHaveValue(/The sources were read by the stub model\.\n$/)

  await body.fill(`${await body.inputValue()}\nEdited by the leader.\n`)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Report saved.').first()).toBeVisible()
  await expect(page.getByRole('list', { name: 'Saved reports' }).getByText(`Autumn walkthroughs ${run}`)).toBeVisible()

  const download = page.waitForEvent('download')
  await page.getByRole('link', { name: 'Download Word' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe(`Autumn walkthroughs ${run}.docx`)
  const bytes = await (await file.createReadStream()).toArray()
  const docx = Buffer.concat(bytes as Buffer[])
  expect(docx.subarray(0, 2).toString()).toBe('PK')
  expect(docx.includes(Buffer.from('word/document.xml'))).toBe(true)
  expect(await serious(page)).toEqual([])
})
