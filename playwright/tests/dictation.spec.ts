// Live dictation end to end: the marking form's 'Dictate' opens the drawer, Chromium's fake
// microphone streams through the AudioWorklet and the wasm recorder to the stub speech
// server (stubs/speech-server.mjs, Deepgram's live protocol), whose transcript appears;
// Stop gives one 16 kHz mono 16-bit WAV; the transcript goes into the feedback field.
// Serial. The stub's sessions are shared with every worker, so each test finds its own by
// the request ids its page received.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'
import { ownSpeechSession, refuseMicrophone, watchSpeechRequests } from '../fixtures/microphone'

test.describe.configure({ mode: 'serial' })

const PHRASE = 'Good use of evidence in paragraph two.'
const MIC_ERROR = 'Unable to connect to microphone. Please check your settings and try again.'

async function seriousViolations(page: Page, include: string) {
  const results = await new AxeBuilder({ page }).include(include).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
}

/** Opens the Feedback Hub's marking form for the first waiting submission. */
async function openMarking(page: Page) {
  await page.goto('/feedback')
  await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
  const items = page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem')
  await expect(items.first()).toBeVisible()
  await items.first().getByRole('button').click()
  await expect(page.getByRole('region', { name: /: / })).toBeVisible()
}

interface WavFacts {
  size: number
  riff: string
  wave: string
  riffSize: number
  format: number
  channels: number
  sampleRate: number
  byteRate: number
  blockAlign: number
  bits: number
  dataTag: string
  dataSize: number
}

/** Reads the drawer's recording (a blob: URL) in the page and returns its header fields. */
async function readWav(page: Page, src: string): Promise<WavFacts> {
  return page.evaluate(async (url) => {
    const bytes = await (await fetch(url)).arrayBuffer()
    const view = new DataView(bytes)
    const text = (at: number) => String.fromCharCode(...new Uint8Array(bytes, at, 4))
    return {
      size: bytes.byteLength,
      riff: text(0),
      riffSize: view.getUint32(4, true),
      wave: text(8),
      format: view.getUint16(20, true),
      channels: view.getUint16(22, true),
      sampleRate: view.getUint32(24, true),
      byteRate: view.getUint32(28, true),
      blockAlign: view.getUint16(32, true),
      bits: view.getUint16(34, true),
      dataTag: text(36),
      dataSize: view.getUint32(40, true),
    }
  }, src)
}

/** "1:07 / 15:00" -> 67 */
function timerSeconds(text: string): number {
  const [minutes, seconds] = text.trim().split(' ')[0].split(':').map(Number)
  return minutes * 60 + seconds
}

test('dictating streams to the speech server, shows the transcript and gives one WAV for the feedback', async ({
  page,
  signIn,
}) => {
  test.setTimeout(90_000)
  const ownRequests = watchSpeechRequests(page)
  await signIn('teacher')
  await openMarking(page)
  await page.getByRole('button', { name: 'Dictate' }).click()

  const drawer = page.getByRole('dialog', { name: 'Live dictation' })
  await expect(drawer).toBeVisible()
  const microphone = drawer.getByTestId('microphone-state')
  const connection = drawer.getByTestId('connection-state')
  await expect(microphone).toHaveText('open')
  await expect(connection).toHaveText('open')
  await expect(drawer.getByRole('timer', { name: 'Dictation time' })).toContainText('/ 15:00')
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([])

  // The stub answers each second of audio: an interim guess, then the final phrase.
  await expect(drawer.getByTestId('transcript')).toContainText(PHRASE, { timeout: 15_000 })
  // Only a recording and a transcript together can be kept as a draft.
  await expect(drawer.getByRole('button', { name: 'Save to drafts' })).toHaveCount(0)

  // Pause and resume.
  await drawer.getByRole('button', { name: 'Pause' }).click()
  await expect(microphone).toHaveText('paused')
  await drawer.getByRole('button', { name: 'Resume' }).click()
  await expect(microphone).toHaveText('open')

  // A KeepAlive goes out every 10 seconds while the socket is open.
  await expect
    .poll(async () => (await ownSpeechSession(ownRequests))?.keepAlives ?? 0, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(1)

  await drawer.getByRole('button', { name: 'Stop' }).click()
  await expect(connection).toHaveText('closed')
  await expect(drawer.locator('audio')).toHaveCount(1)
  const seconds = timerSeconds(await drawer.getByRole('timer', { name: 'Dictation time' }).innerText())
  // More than the few seconds the transcript took; the pause is not counted.
  expect(seconds).toBeGreaterThanOrEqual(5)

  const wav = await readWav(page, (await drawer.locator('audio').getAttribute('src')) ?? '')
  expect(wav).toMatchObject({
    riff: 'RIFF',
    wave: 'WAVE',
    format: 1,
    channels: 1,
    sampleRate: 16_000,
    byteRate: 32_000,
    blockAlign: 2,
    bits: 16,
    dataTag: 'data',
  })
  expect(wav.riffSize).toBe(wav.size - 8)
  expect(wav.dataSize).toBe(wav.size - 44)
  // The data is as long as the audio the timer counted (whole seconds shown).
  const wavSeconds = wav.dataSize / 32_000
  expect(wavSeconds).toBeGreaterThanOrEqual(seconds)
  expect(wavSeconds).toBeLessThan(seconds + 1)

  // What the speech server received.
  const session = await ownSpeechSession(ownRequests)
  expect(session).toMatchObject({
    auth: 'bearer',
    protocol: 'bearer',
    params: {
      model: 'nova-2',
      smart_format: 'true',
      profanity_filter: 'true',
      encoding: 'linear16',
      sample_rate: '16000',
      channels: '1',
      interim_results: 'true',
    },
    emptyFrames: 0,
    closeStreams: 1,
  })
  expect(session?.bytes).toBeGreaterThan(0)
  // The socket carried the same 16 kHz audio as the WAV (give or take the last block).
  expect(Math.abs((session?.bytes ?? 0) - wav.dataSize)).toBeLessThanOrEqual(32_000)
  expect(session?.keepAlives).toBeGreaterThanOrEqual(1)
  await expect.poll(async () => (await ownSpeechSession(ownRequests))?.closeCode).toBe(1000)

  // Recording and transcript: the draft can be kept (the WAV is uploaded as a voice note).
  await drawer.getByRole('button', { name: 'Save to drafts' }).click()
  await expect(page.getByText('Saved to drafts.', { exact: true })).toBeVisible()

  await drawer.getByRole('button', { name: 'Insert into feedback' }).click()
  await expect(drawer).toBeHidden()
  await expect(page.getByLabel('Feedback', { exact: true })).toHaveValue(new RegExp(PHRASE.replaceAll('.', '\\.')))

  // The draft's recording is a WAV voice note with its transcript. Leaving the page at once
  // does not leave the recording behind to be offered back (it was inserted and saved).
  await page.goto('/voice-notes')
  await expect(page.getByRole('heading', { level: 1, name: 'Voice notes' })).toBeVisible()
  const draft = page.getByRole('list', { name: 'Your voice notes' }).getByRole('listitem').filter({ hasText: 'Dictation draft' })
  await expect(draft).toHaveCount(1)
  await expect(page.getByRole('alertdialog', { name: /^Recovered dictation from / })).toHaveCount(0)
  await expect(draft).toContainText(PHRASE)
  const src = (await draft.locator('audio').getAttribute('src')) ?? ''
  const response = await page.request.get(src)
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toMatch(/^audio\/(wav|x-wav|wave)/)
  expect((await response.body()).length).toBe(wav.size)
})

test('closing while dictating stops first and keeps the recording; closing again discards it', async ({ page, signIn }) => {
  test.setTimeout(60_000)
  await signIn('teacher')
  await openMarking(page)
  await page.getByRole('button', { name: 'Dictate' }).click()
  const drawer = page.getByRole('dialog', { name: 'Live dictation' })
  await expect(drawer.getByTestId('connection-state')).toHaveText('open')
  await expect(drawer.getByTestId('transcript')).toContainText(PHRASE, { timeout: 15_000 })

  const close = drawer.getByRole('button', { name: 'Close dictation' })
  await expect(close).toBeVisible()
  await close.click()
  // Not closed: stopped, with the recording still here and a plain sentence about it.
  await expect(drawer).toBeVisible()
  await expect(drawer.getByText('Dictation stopped. Insert, save or download the recording, or close again to discard it.')).toBeVisible()
  await expect(drawer.locator('audio')).toHaveCount(1)
  await expect(drawer.getByRole('button', { name: 'Stop' })).toHaveCount(0)
  // The keyboard closes it the second time.
  await page.keyboard.press('Escape')
  await expect(drawer).toBeHidden()
})

test('on a phone the drawer has a labelled close button that closes it at once when nothing is recorded', async ({ page, signIn }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signIn('teacher')
  await refuseMicrophone(page)
  await openMarking(page)
  await page.getByRole('button', { name: 'Dictate' }).click()
  const drawer = page.getByRole('dialog', { name: 'Live dictation' })
  await expect(drawer.getByText(MIC_ERROR)).toBeVisible()
  const close = drawer.getByRole('button', { name: 'Close dictation' })
  const box = (await close.boundingBox())!
  expect(box.x + box.width).toBeLessThanOrEqual(390)
  await close.focus()
  await page.keyboard.press('Enter')
  await expect(drawer).toBeHidden()
})

test('a refused microphone shows the microphone error in the drawer', async ({ page, signIn }) => {
  await signIn('teacher')
  await refuseMicrophone(page)
  await openMarking(page)
  await page.getByRole('button', { name: 'Dictate' }).click()
  const drawer = page.getByRole('dialog', { name: 'Live dictation' })
  await expect(drawer.getByText(MIC_ERROR)).toBeVisible()
  await expect(drawer.getByTestId('microphone-state')).toHaveText('error')
  await expect(drawer.getByRole('button', { name: 'Stop' })).toHaveCount(0)
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([])
})

test('without a speech provider the drawer says plainly that dictation is not set up', async ({ page, signIn }) => {
  // This run's server has a speech provider, so its system.features answer is rewritten to
  // the one a server without VOICEMARK_DEEPGRAM_* gives (dictation: false).
  await page.route(/\/api\/trpc\/[^?]*system\.features/, async (route) => {
    const response = await route.fetch()
    const paths = decodeURIComponent(new URL(route.request().url()).pathname.replace('/api/trpc/', '')).split(',')
    const body = (await response.json()) as { result: { data: { json: Record<string, unknown> } } }[]
    body[paths.indexOf('system.features')].result.data.json.dictation = false
    await route.fulfill({ response, json: body })
  })
  // The stub's session list is shared with every worker (another file may be dictating at
  // the same moment), so what this page itself opened is what counts: no WebSocket, and no
  // request for a speech token.
  const sockets: string[] = []
  page.on('websocket', (socket) => sockets.push(socket.url()))
  const tokenCalls: string[] = []
  page.on('request', (request) => {
    if (request.url().includes('getDeepgramKey')) tokenCalls.push(request.url())
  })
  await signIn('teacher')
  await openMarking(page)
  await page.getByRole('button', { name: 'Dictate' }).click()
  const drawer = page.getByRole('dialog', { name: 'Live dictation' })
  await expect(drawer.getByText('Live dictation is not switched on for your school yet. Ask your administrator.')).toBeVisible()
  await expect(drawer.getByTestId('microphone-state')).toHaveCount(0)
  await expect(drawer.getByRole('button', { name: 'Stop' })).toHaveCount(0)
  expect(sockets).toEqual([])
  expect(tokenCalls).toEqual([])
})
