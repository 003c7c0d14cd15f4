// The take-photo analyser end to end: Chromium's fake camera (fixtures/media/fake-camera.y4m)
// -> the photo worker (upright, longest side <= 1600, no metadata) -> notification.analyseImage
// on the release server -> the stub OpenAI-compatible vision server (stubs/vision-server.mjs),
// whose GET /requests shows exactly what left the browser. Each test puts its own marker in
// the prompt, so tests running side by side find their own request.
import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'
import { exifSegment, jpegFacts, withSegment } from '../fixtures/photos'
import { VISION_URL } from '../fixtures/ports'

const STUB = VISION_URL
const LIMIT_TEXT = 'Photo limit reached: You can submit up to 10 photos to be analysed by AI.'

interface StubRequest {
  prompt: string
  imageCount: number
  images: string[]
}

async function openFromPalette(page: Page): Promise<Locator> {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await page.keyboard.press('Control+K')
  await page.getByPlaceholder('Search...').fill('New photo')
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Analyse photos' })
  await expect(dialog).toBeVisible()
  return dialog
}

/** Takes `count` photos, waiting for each to be prepared. */
async function takePhotos(dialog: Locator, count: number, already = 0) {
  const take = dialog.getByRole('button', { name: 'Take photo' })
  for (let i = 1; i <= count; i++) {
    await take.click()
    await expect(dialog.getByText(`${already + i} of 10 photos`)).toBeVisible()
    await expect(dialog.getByText(/^Preparing/)).toHaveCount(0)
  }
}

async function confirmWithPrompt(dialog: Locator, prompt: string) {
  await dialog.getByLabel('Instructions for the AI').fill(prompt)
  await dialog.getByRole('button', { name: 'Confirm' }).click()
}

/** The stub's record of the request whose prompt contains `marker`. */
async function stubRequest(page: Page, marker: string): Promise<StubRequest> {
  let found: StubRequest | undefined
  await expect
    .poll(async () => {
      const requests = (await (await page.request.get(`${STUB}/requests`)).json()) as StubRequest[]
      found = requests.find((r) => r.prompt.includes(marker))
      return !!found
    })
    .toBe(true)
  return found!
}

function marker(): string {
  return `case-${Math.random().toString(36).slice(2, 10)}`
}

test.beforeEach(async ({ signIn }) => {
  await signIn('teacher')
})

test('two photos from the camera are analysed; they leave the browser small and without metadata', async ({ page }) => {
  const dialog = await openFromPalette(page)
  await expect(dialog.getByRole('tab', { name: 'Camera' })).toHaveAttribute('aria-selected', 'true')
  await takePhotos(dialog, 2)
  await dialog.getByRole('button', { name: 'Review photos' }).click()
  await expect(dialog.getByRole('tab', { name: 'Review' })).toHaveAttribute('aria-selected', 'true')
  await expect(dialog.getByRole('list', { name: 'Photos to analyse' }).getByRole('img')).toHaveCount(2)

  const id = marker()
  await confirmWithPrompt(dialog, `Mark this worksheet (${id})`)
  await expect(dialog.getByRole('tab', { name: 'AI Response' })).toHaveAttribute('aria-selected', 'true')
  await expect(dialog.getByRole('textbox', { name: 'AI response' })).toHaveValue(/^Feedback on 2 photos: Clear working shown throughout\./)

  const sent = await stubRequest(page, id)
  expect(sent.imageCount).toBe(2)
  for (const image of sent.images) {
    const facts = jpegFacts(new Uint8Array(Buffer.from(image, 'base64')))
    expect(facts, 'a JPEG').toBeDefined()
    // The fake camera is 640x480: kept as it is (within 1600), upright, no metadata.
    expect(Math.max(facts!.width, facts!.height)).toBeLessThanOrEqual(1600)
    expect(facts!.width).toBeGreaterThan(0)
    expect(facts!.metadata.filter((m) => m.startsWith('APP1'))).toEqual([])
    expect(facts!.gps).toBe(false)
  }

  // 'Convert to notes' has the model write notes from the same photos (the notes mode).
  await dialog.getByRole('button', { name: 'Convert to notes' }).click()
  await expect(dialog.getByRole('textbox', { name: 'Notes' })).toHaveValue(
    'Notes from 2 photos:\n- Question 3 works in metres and seconds.\n- The graph has labelled axes.',
  )

  // 'Back to camera' resets photos, mode and result.
  await dialog.getByRole('button', { name: 'Back to camera' }).click()
  await expect(dialog.getByRole('tab', { name: 'Camera' })).toHaveAttribute('aria-selected', 'true')
  await expect(dialog.getByText('0 of 10 photos')).toBeVisible()
  await expect(dialog.getByRole('tab', { name: 'Review' })).toBeDisabled()
  await expect(dialog.getByRole('tab', { name: 'AI Response' })).toBeDisabled()
})

test('at 10 photos capture stops with the limit text and the dialog moves to Review', async ({ page }) => {
  test.setTimeout(60_000)
  const dialog = await openFromPalette(page)
  await takePhotos(dialog, 9)
  await dialog.getByRole('button', { name: 'Take photo' }).click()
  await expect(dialog.getByRole('tab', { name: 'Review' })).toHaveAttribute('aria-selected', 'true')
  await expect(dialog.getByText(LIMIT_TEXT)).toBeVisible()
  await expect(dialog.getByRole('list', { name: 'Photos to analyse' }).getByRole('img')).toHaveCount(10)

  await dialog.getByRole('tab', { name: 'Camera' }).click()
  await expect(dialog.getByRole('button', { name: 'Take photo' })).toBeDisabled()
  await expect(dialog.getByText(LIMIT_TEXT)).toBeVisible()

  // Removing every photo in Review returns to the camera.
  await dialog.getByRole('tab', { name: 'Review' }).click()
  for (let left = 10; left > 0; left--) await dialog.getByRole('button', { name: 'Remove photo 1', exact: true }).click()
  await expect(dialog.getByRole('tab', { name: 'Camera' })).toHaveAttribute('aria-selected', 'true')
  await expect(dialog.getByRole('button', { name: 'Take photo' })).toBeEnabled()
})

test("a provider failure shows 'Something went wrong' with its message", async ({ page }) => {
  const dialog = await openFromPalette(page)
  await takePhotos(dialog, 1)
  await dialog.getByRole('button', { name: 'Review photos' }).click()
  await confirmWithPrompt(dialog, `FAIL ${marker()}`)
  // A red toast (hidden from assistive technology behind the modal dialog, so found by
  // text) and the same message inside the dialog.
  await expect(page.getByText('Something went wrong', { exact: true })).toBeVisible()
  await expect(page.getByText(/^The AI service answered: The model crashed while reading the images\.$/)).toBeVisible()
  await expect(dialog.getByRole('alert')).toHaveText(
    'Something went wrong: The AI service answered: The model crashed while reading the images.',
  )
  // The photos stay for another try.
  await expect(dialog.getByRole('tab', { name: 'Review' })).toHaveAttribute('aria-selected', 'true')
})

test("a refused camera says 'Unable to access camera'; photos can still be chosen", async ({ page }) => {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'))
  })
  const dialog = await openFromPalette(page)
  await expect(dialog.getByRole('alert')).toHaveText('Unable to access camera')
  await expect(dialog.getByRole('button', { name: 'Take photo' })).toBeDisabled()
  await expect(dialog.getByRole('button', { name: 'Choose photos' })).toBeEnabled()
})

test('a chosen photo with EXIF orientation 6 and GPS arrives upright and without GPS', async ({ page }) => {
  await page.goto('/')
  // A 800x600 landscape JPEG with a red block in its top-left corner, made by the browser.
  const base64 = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(800, 600)
    const ctx = canvas.getContext('2d')!
    ctx.fillStyle = '#f4f1e8'
    ctx.fillRect(0, 0, 800, 600)
    ctx.fillStyle = '#d00000'
    ctx.fillRect(0, 0, 200, 150)
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 })
    const bytes = new Uint8Array(await blob.arrayBuffer())
    let binary = ''
    for (const byte of bytes) binary += String.fromCharCode(byte)
    return btoa(binary)
  })
  const original = withSegment(new Uint8Array(Buffer.from(base64, 'base64')), exifSegment({ orientation: 6, gps: true }))
  expect(jpegFacts(original)).toMatchObject({ width: 800, height: 600, gps: true })

  const dialog = await openFromPalette(page)
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'worksheet.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from(original),
  })
  await expect(dialog.getByText('1 of 10 photos')).toBeVisible()
  await expect(dialog.getByText(/^Preparing/)).toHaveCount(0)
  await dialog.getByRole('button', { name: 'Review photos' }).click()
  const id = marker()
  await confirmWithPrompt(dialog, `Read this (${id})`)
  await expect(dialog.getByRole('textbox', { name: 'AI response' })).toHaveValue(/^Feedback on 1 photo:/)

  const [image] = (await stubRequest(page, id)).images
  const facts = jpegFacts(new Uint8Array(Buffer.from(image, 'base64')))!
  expect({ width: facts.width, height: facts.height }).toEqual({ width: 600, height: 800 })
  expect(facts.metadata.filter((m) => m.startsWith('APP1'))).toEqual([])
  expect(facts.gps).toBe(false)
  // Orientation 6 turns the picture a quarter clockwise: the red top-left corner is now top-right.
  const corners = await page.evaluate(async (data) => {
    // Built from the bytes, not fetched: the page's Content-Security-Policy allows no data: fetch.
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0))
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }))
    const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!
    ctx.drawImage(bitmap, 0, 0)
    const at = (x: number, y: number) => Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3))
    return { topLeft: at(20, 20), topRight: at(bitmap.width - 20, 20) }
  }, image)
  expect(corners.topRight[0]).toBeGreaterThan(180)
  expect(corners.topRight[1]).toBeLessThan(80)
  expect(corners.topLeft[1]).toBeGreaterThan(180)
})

test('without AI configured the dialog says so plainly before any photo, with no camera', async ({ page }) => {
  // The server under test has a vision model; answer system.features as a server without one
  // would, whichever batch it travels in.
  await page.route('**/api/trpc/**', async (route) => {
    const url = new URL(route.request().url())
    const paths = decodeURIComponent(url.pathname.replace('/api/trpc/', '')).split(',')
    const at = paths.indexOf('system.features')
    if (at < 0) return route.fallback()
    const response = await route.fetch()
    const body = (await response.json()) as unknown[]
    body[at] = { result: { data: { json: { photoAnalysis: false, dictation: false } } } }
    await route.fulfill({ response, json: body })
  })
  const dialog = await openFromPalette(page)
  await expect(
    dialog.getByText('AI photo analysis is not switched on for your school yet. Ask your administrator.'),
  ).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Take photo' })).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'Confirm' })).toHaveCount(0)
})

test('an unreadable file gets a clear message, not a crash', async ({ page }) => {
  const dialog = await openFromPalette(page)
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'broken.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]),
  })
  await expect(dialog.getByRole('alert')).toContainText('broken.jpg: This file could not be read as a photo.')
  await expect(page.getByText('This photo could not be used', { exact: true })).toBeVisible()
  await expect(dialog.getByText('0 of 10 photos')).toBeVisible()
  await takePhotos(dialog, 1)
})

test("'Create message' opens the editor with the AI's text in the body", async ({ page }) => {
  const dialog = await openFromPalette(page)
  await takePhotos(dialog, 1)
  await dialog.getByRole('button', { name: 'Review photos' }).click()
  await confirmWithPrompt(dialog, `Message ${marker()}`)
  await dialog.getByRole('button', { name: 'Create message' }).click()
  await expect(page).toHaveURL('/notifications/create?assistant=1')
  // A message, not an assignment: the heading follows the type.
  await expect(page.getByRole('heading', { level: 1, name: 'New message' })).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Analyse photos' })).toHaveCount(0)
  await expect(page.getByRole('textbox', { name: 'Message' })).toContainText(
    'Feedback on 1 photo: Clear working shown throughout.',
  )
})

test("from the message editor, 'Insert into message' adds the answer to the body", async ({ page }) => {
  await page.goto('/notifications/create?type=GENERAL')
  const body = page.getByRole('textbox', { name: 'Message' })
  await body.fill('Dear parents,')
  await page.getByRole('button', { name: 'Analyse photos' }).click()
  const dialog = page.getByRole('dialog', { name: 'Analyse photos' })
  await takePhotos(dialog, 1)
  await dialog.getByRole('button', { name: 'Review photos' }).click()
  await confirmWithPrompt(dialog, `Editor ${marker()}`)
  await dialog.getByRole('button', { name: 'Insert into message' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(body).toContainText('Dear parents,')
  await expect(body).toContainText('Feedback on 1 photo: Clear working shown throughout.')
})

test("from marking, 'Use as feedback' fills the feedback field", async ({ page }) => {
  await page.goto('/feedback')
  await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
  await page.getByRole('button', { name: 'Analyse photos' }).click()
  const dialog = page.getByRole('dialog', { name: 'Analyse photos' })
  await takePhotos(dialog, 1)
  await dialog.getByRole('button', { name: 'Review photos' }).click()
  await confirmWithPrompt(dialog, `Marking ${marker()}`)
  await dialog.getByRole('button', { name: 'Use as feedback' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByLabel('Feedback', { exact: true })).toHaveValue(/^Feedback on 1 photo: Clear working/)
})

test('the open dialog has no serious accessibility violation and works from the keyboard', async ({ page }) => {
  // Keep hold of the camera streams the page opens, to check they stop with the dialog.
  await page.addInitScript(() => {
    const streams: MediaStream[] = []
    const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices)
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await open(constraints)
      streams.push(stream)
      return stream
    }
    ;(window as unknown as { cameraStreams: MediaStream[] }).cameraStreams = streams
  })
  const dialog = await openFromPalette(page)
  await expect(dialog.getByRole('button', { name: 'Take photo' })).toBeEnabled()
  const results = await new AxeBuilder({ page }).include('[role=dialog]').analyze()
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
  expect(serious).toEqual([])

  // Keyboard: take a photo with Enter, then Escape closes the dialog and stops the camera.
  await dialog.getByRole('button', { name: 'Take photo' }).focus()
  await page.keyboard.press('Enter')
  await expect(dialog.getByText('1 of 10 photos')).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  const tracks = await page.evaluate(() =>
    (window as unknown as { cameraStreams: MediaStream[] }).cameraStreams.flatMap((s) => s.getTracks().map((t) => t.readyState)),
  )
  expect(tracks.length).toBeGreaterThan(0)
  expect(tracks.every((state) => state === 'ended')).toBe(true)
})

/** Records the video constraints the page asks getUserMedia for. */
async function recordCameraRequests(page: Page) {
  await page.addInitScript(() => {
    const asked: unknown[] = []
    const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices)
    navigator.mediaDevices.getUserMedia = (constraints) => {
      asked.push(constraints?.video)
      return open(constraints)
    }
    ;(window as unknown as { cameraAsked: unknown[] }).cameraAsked = asked
  })
  return () => page.evaluate(() => (window as unknown as { cameraAsked: { facingMode?: { ideal?: string } }[] }).cameraAsked)
}

test('a laptop asks for the front camera', async ({ page }) => {
  const asked = await recordCameraRequests(page)
  const dialog = await openFromPalette(page)
  await expect(dialog.getByRole('button', { name: 'Take photo' })).toBeEnabled()
  expect((await asked()).map((video) => video.facingMode?.ideal)).toContain('user')
})

test.describe('on a phone', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } })

  test('the rear camera is asked for', async ({ page }) => {
    const asked = await recordCameraRequests(page)
    const dialog = await openFromPalette(page)
    await expect(dialog.getByRole('button', { name: 'Take photo' })).toBeEnabled()
    const modes = (await asked()).map((video) => video.facingMode?.ideal)
    expect(modes.length).toBeGreaterThan(0)
    expect(modes.every((mode) => mode === 'environment')).toBe(true)
  })
})
