// A task's content end to end (issue 11, the content step): upload a recording, a PDF and
// a text file with a progress bar each, watch them go Queued -> Ready with the stub
// Deepgram's pre-recorded transcript (playwright/stubs/speech-server.mjs) and the server's
// PDF reading; a recording the stub refuses shows Failed with the reason and Retry; pull
// in a voice note; remove an item. The task is opened through the tasks pages
// (`openNewTask`: /leaders/tasks/create with the demo's "Lesson observation" template).
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'
import { SPEECH_URL } from '../fixtures/ports'

const SPEECH_STUB = SPEECH_URL

/** Creates a task from the demo's "Lesson observation" template and lands on its edit page. */
async function openNewTask(page: Page): Promise<string> {
  await page.goto('/leaders/tasks/create')
  await page.getByLabel('Title').fill(`Content check ${Date.now().toString(36)}`)
  await page.getByRole('radio', { name: /Lesson observation/ }).check()
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(/\/leaders\/tasks\/[^/]+\/edit$/)
  const id = /\/leaders\/tasks\/([^/]+)\/edit$/.exec(new URL(page.url()).pathname)?.[1]
  expect(id).toBeTruthy()
  await expect(page.getByRole('region', { name: 'Content' })).toBeVisible()
  return id ?? ''
}

/** A tiny valid WAV: 44-byte header and `seconds` of 16 kHz mono silence. */
function wav(seconds: number, prefix = ''): Buffer {
  const data = Buffer.alloc(seconds * 32_000)
  data.write(prefix, 0, 'latin1')
  const header = Buffer.alloc(44)
  header.write('RIFF', 0)
  header.writeUInt32LE(36 + data.length, 4)
  header.write('WAVEfmt ', 8)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(16_000, 24)
  header.writeUInt32LE(32_000, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write('data', 36)
  header.writeUInt32LE(data.length, 40)
  return prefix ? Buffer.concat([Buffer.from(prefix, 'latin1'), header, data]) : Buffer.concat([header, data])
}

/** A one-page PDF whose text layer says `text` (uncompressed, with a correct xref). */
function pdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 700 Td (${text}) Tj ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
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

function item(page: Page, name: string) {
  return page.getByRole('list', { name: 'Task content' }).getByRole('listitem').filter({ hasText: name })
}

test('files uploaded to a task are transcribed or read, with their state shown', async ({ page, signIn }) => {
  await signIn('teacher')
  await openNewTask(page)
  const section = page.getByRole('region', { name: 'Content' })
  for (const anchor of ['content-voice-notes', 'content-upload', 'content-photos', 'content-record', 'content-overview'])
    await expect(section.locator(`[data-tour="${anchor}"]`)).toBeVisible()
  await expect(section.getByText(/^Tips:/)).toBeVisible()

  // Hold each PUT a moment so the progress bars can be seen.
  await page.route(
    (url) => url.pathname.startsWith('/api/uploads/') || url.pathname.startsWith('/api/upload-parts/'),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800))
      await route.continue()
    },
  )
  await section.getByLabel('Upload files').setInputFiles([
    { name: 'lesson.wav', mimeType: 'audio/wav', buffer: wav(2) },
    { name: 'policy.pdf', mimeType: 'application/pdf', buffer: pdf('Feedback policy 2026') },
    { name: 'plan.txt', mimeType: 'text/plain', buffer: Buffer.from('Seating plan: rows A-D') },
  ])
  await expect(section.getByRole('progressbar', { name: 'Uploading lesson.wav' })).toBeVisible()

  const lesson = item(page, 'lesson.wav')
  await expect(lesson.getByText('Ready')).toBeVisible({ timeout: 20_000 })
  await expect(lesson).toContainText(/Stub transcript of \d+ bytes of audio\/wav\./)
  await expect(item(page, 'policy.pdf').getByText('Ready')).toBeVisible({ timeout: 20_000 })
  await expect(item(page, 'policy.pdf')).toContainText('Feedback policy 2026')
  await expect(item(page, 'plan.txt')).toContainText('Seating plan: rows A-D')

  const calls = (await (await page.request.get(`${SPEECH_STUB}/prerecorded`)).json()) as { contentType: string }[]
  expect(calls.some((call) => call.contentType === 'audio/wav')).toBe(true)

  // Remove takes an item away.
  await item(page, 'plan.txt').getByRole('button', { name: 'Remove plan.txt' }).click()
  await expect(item(page, 'plan.txt')).toHaveCount(0)
})

test('a recording the speech service refuses shows why, and a wrong type is refused on upload', async ({
  page,
  signIn,
}) => {
  await signIn('teacher')
  await openNewTask(page)
  const section = page.getByRole('region', { name: 'Content' })
  await section.getByLabel('Upload files').setInputFiles([
    { name: 'broken.wav', mimeType: 'audio/wav', buffer: wav(1, 'FAIL') },
  ])
  const broken = item(page, 'broken.wav')
  await expect(broken.getByLabel('State: Failed')).toBeVisible({ timeout: 20_000 })
  await expect(broken.getByRole('alert')).toContainText('The speech service answered: Bad Request')
  await expect(broken.getByRole('button', { name: 'Retry' })).toBeVisible()

  await section.getByLabel('Upload files').setInputFiles([
    { name: 'page.html', mimeType: 'text/html', buffer: Buffer.from('<p>hi</p>') },
  ])
  await expect(page.getByText('Upload failed', { exact: true })).toBeVisible()
  await expect(section.getByRole('alert').filter({ hasText: 'page.html' })).toBeVisible()
})

test('voice notes are pulled into a task from the personal folder', async ({ page, signIn }) => {
  await signIn('teacher')
  // A voice note in the personal folder, through the same calls the recorder makes.
  const audio = wav(1)
  const ticket = await page.request.post('/api/trpc/leader.uploadVoiceNote', {
    data: { json: { filename: 'Corridor chat.wav', contentType: 'audio/wav', size: audio.length } },
  })
  const target = (await ticket.json()).result.data.json as { key: string; url: string; headers: Record<string, string> }
  expect((await page.request.put(target.url, { headers: target.headers, data: audio })).ok()).toBe(true)
  await page.request.post('/api/trpc/leader.transferVoiceNoteToPersonalFolder', { data: { json: { key: target.key } } })

  await openNewTask(page)
  await page.getByRole('button', { name: 'Pull in voice notes' }).click()
  const dialog = page.getByRole('dialog', { name: 'Pull in voice notes' })
  await dialog.getByRole('button', { name: 'Add' }).click()
  await expect(dialog.getByText('Choose at least one voice note.')).toBeVisible()
  await dialog.getByRole('checkbox', { name: /Corridor chat\.wav/ }).check()
  await dialog.getByRole('button', { name: 'Add' }).click()
  await expect(dialog).toBeHidden()
  const note = item(page, 'Corridor chat.wav')
  await expect(note).toContainText('Voice note')
  await expect(note.getByText('Ready')).toBeVisible({ timeout: 20_000 })
})
