// Uploads in parts that resume (issue 27 item 4; docs/storage.md, "Uploads in parts"): a
// 40 MB recording added to a task's content through the file picker (the surface that
// takes a user's file; voice notes are recorded, not picked) goes up in 5 MiB parts. The
// part that crosses 80 % is cut once (`page.route` aborts it) and the browser goes offline;
// back online, the upload completes. The server must receive every byte exactly once
// (counted from its answers to the forwarded parts), and at most one part is sent twice.
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'
import { SPEECH_URL } from '../fixtures/ports'
import { mailServersForFile } from '../fixtures/smtp'

// A server of this file's own: the task it creates must not count against the demo
// teacher's Basic weekly limit (5 new tasks in any 7 days) on the shared server.
// The speech stub of the run transcribes the task's file.
const servers = mailServersForFile(test, {
  VOICEMARK_DEEPGRAM_URL: SPEECH_URL,
  VOICEMARK_DEEPGRAM_API_KEY: 'stub-deepgram-key',
})

const PART_SIZE = 5 * 1024 * 1024

/** Creates a task from the demo's "Lesson observation" template and lands on its edit page. */
async function openNewTask(page: Page): Promise<void> {
  await page.goto('/leaders/tasks/create')
  await page.getByLabel('Title').fill(`Long recording ${Date.now().toString(36)}`)
  await page.getByRole('radio', { name: /Lesson observation/ }).check()
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(/\/leaders\/tasks\/[^/]+\/edit$/)
  await expect(page.getByRole('region', { name: 'Content' })).toBeVisible()
}

/** A valid WAV of `total` bytes: a 44-byte header and 16 kHz mono silence. */
function wav(total: number): Buffer {
  const data = Buffer.alloc(total - 44)
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
  return Buffer.concat([header, data])
}

test('a 40 MB recording cut at about 80 % completes once back online, re-sending at most one part', async ({
  page,
  context,
  signIn,
}) => {
  test.setTimeout(240_000)
  await servers()
  await signIn('teacher')
  await openNewTask(page)
  const section = page.getByRole('region', { name: 'Content' })

  const size = 40_000_000
  const file = wav(size)
  // The part in flight when 80 % of the bytes have gone.
  const crossing = Math.floor((0.8 * size) / PART_SIZE) + 1
  const attempts = new Map<number, number>()
  let sent = 0 // bytes the browser sent, the cut part included
  let received = 0 // bytes the server says it kept
  let cut = false
  await page.route(
    (url) => url.pathname.startsWith('/api/upload-parts/'),
    async (route) => {
      const request = route.request()
      const part = Number(new URL(request.url()).pathname.split('/').pop())
      attempts.set(part, (attempts.get(part) ?? 0) + 1)
      sent += request.postDataBuffer()?.length ?? 0
      if (part === crossing && !cut) {
        cut = true
        await context.setOffline(true)
        await route.abort('internetdisconnected')
        return
      }
      const response = await route.fetch()
      if (response.ok()) received += ((await response.json()) as { size: number }).size
      await route.fulfill({ response })
    },
  )

  await section.getByLabel('Upload files').setInputFiles([
    { name: 'long-lesson.wav', mimeType: 'audio/wav', buffer: file },
  ])
  await expect.poll(() => cut, { timeout: 180_000 }).toBe(true)
  // Offline, the upload waits rather than failing.
  await expect(section.getByRole('progressbar', { name: 'Uploading long-lesson.wav' })).toBeVisible()
  await expect(page.getByText('Upload failed', { exact: true })).toHaveCount(0)
  await context.setOffline(false)

  const lesson = page
    .getByRole('list', { name: 'Task content' })
    .getByRole('listitem')
    .filter({ hasText: 'long-lesson.wav' })
  await expect(lesson.getByText('Ready')).toBeVisible({ timeout: 180_000 })
  // The speech stub names the bytes it was sent: the whole file, as stored.
  await expect(lesson).toContainText(`Stub transcript of ${size} bytes of audio/wav.`)

  expect(received).toBe(size)
  expect(attempts.size).toBe(Math.ceil(size / PART_SIZE))
  const twice = [...attempts].filter(([, count]) => count > 1)
  expect(twice.map(([part]) => part)).toEqual([crossing])
  expect(Math.max(...attempts.values())).toBe(2)
  const resent = sent - size
  console.log(`re-sent bytes after a cut upload: ${resent} of ${size} (part ${crossing} of ${attempts.size}, parts of ${PART_SIZE} bytes)`)
  expect(resent).toBeGreaterThan(0)
  expect(resent).toBeLessThanOrEqual(PART_SIZE)
})
