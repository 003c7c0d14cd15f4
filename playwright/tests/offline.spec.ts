// Capture that is never lost (issue 27), against a server of this file's own (fresh demo
// data; the vision and speech stubs of the run): the app is installable (a valid manifest,
// a service worker controlling the page); a teacher offline marks two submissions, comments
// on a pupil, sends three photos to analyse and records a voice note; the app reopens from
// the service worker with the five items still in the Outbox; back online each reaches Sent
// and the server holds exactly one of each. A mark the server refuses becomes Stuck with its
// sentence and Discard removes it; Log out with something waiting warns first, then leaves
// nothing of the user on the device. A task's content (a recording, a file, photos of notes)
// kept while offline reaches the task once each. The service worker is blocked in every other spec.
import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'
import { SPEECH_URL, VISION_URL } from '../fixtures/ports'
import { mailServersForFile } from '../fixtures/smtp'

test.describe.configure({ mode: 'serial' })
test.use({ serviceWorkers: 'allow' })

const servers = mailServersForFile(test, {
  VOICEMARK_VISION_BASE_URL: `${VISION_URL}/v1`,
  VOICEMARK_VISION_MODEL: 'stub-vision',
  VOICEMARK_VISION_API_KEY: 'stub-vision-key',
  VOICEMARK_DEEPGRAM_URL: SPEECH_URL,
  VOICEMARK_DEEPGRAM_API_KEY: 'stub-deepgram-key',
})

async function rpcQuery(page: Page, path: string, input?: unknown) {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`
  const response = await page.request.get(`/api/trpc/${path}${query}`)
  expect(response.ok(), `${path}: ${await response.text()}`).toBe(true)
  return (await response.json()).result.data.json
}

async function seriousViolations(page: Page, include: string) {
  const results = await new AxeBuilder({ page }).include(include).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
}

/** Waits until the service worker controls the page (it claims the page on its first install). */
async function controlled(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 })
}

/** A pupil profile's path, for the tests after the one that finds it. */
let pupilPath = ''

const NO_FILTER = { notificationId: null, classId: null }

const outboxButton = (page: Page) => page.getByRole('button', { name: /^Outbox, / })

async function openOutbox(page: Page): Promise<Locator> {
  await outboxButton(page).click()
  const panel = page.getByRole('dialog', { name: 'Outbox' })
  await expect(panel).toBeVisible()
  return panel
}

async function markOffline(page: Page, pupil: string, feedback: string) {
  const items = page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem')
  await items.filter({ hasText: pupil }).getByRole('button').click()
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${pupil}:`) })).toBeVisible()
  await page.getByLabel('Feedback', { exact: true }).fill(feedback)
  await page.getByRole('button', { name: 'Mark', exact: true }).click()
  await expect(page.getByText('Feedback kept on this device.', { exact: true }).first()).toBeVisible()
  await expect(items.filter({ hasText: pupil })).toHaveCount(0)
}

test('the app is installable: a valid manifest, and a service worker that controls the page', async ({ page }) => {
  await servers()
  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  const href = await page.locator('link[rel="manifest"]').getAttribute('href')
  expect(href).toBe('/manifest.webmanifest')
  const manifest = await (await page.request.get(href ?? '')).json()
  expect(manifest).toMatchObject({ name: 'Voicemark', short_name: 'Voicemark', start_url: '/', display: 'standalone' })
  expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i)
  const icons = manifest.icons as { src: string; sizes: string; purpose?: string }[]
  expect(icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`).sort()).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ])
  for (const icon of icons) {
    const response = await page.request.get(icon.src)
    expect(response.status(), icon.src).toBe(200)
    expect(response.headers()['content-type']).toBe('image/png')
    // A PNG of the size it claims: the width and height sit at bytes 16-23 of the IHDR chunk.
    const body = await response.body()
    const [width, height] = [body.readUInt32BE(16), body.readUInt32BE(20)]
    expect(`${width}x${height}`).toBe(icon.sizes)
  }
  await controlled(page)
  // The precache holds the app shell and the wasm cores, and no answer of the API.
  const cached = await page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(request.url)
    return urls
  })
  expect(cached.some((url) => /\/index\.html/.test(url))).toBe(true)
  expect(cached.filter((url) => /\.wasm(\?|$)/.test(url)).length).toBeGreaterThanOrEqual(2)
  expect(cached.filter((url) => url.includes('/api/'))).toEqual([])
})

test('five things captured offline survive a reload and each reaches the server exactly once', async ({ page, context, signIn }) => {
  test.setTimeout(180_000)
  await servers()
  const marker = `Offline ${Date.now().toString(36)}`
  await signIn('teacher')
  await page.goto('/feedback')
  await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
  await controlled(page)
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, nothing waiting')
  const profile = await page.getByRole('link', { name: "View Isla Walker's profile" }).getAttribute('href')
  pupilPath = profile ?? ''
  const studentId = profile?.split('/').pop() ?? ''
  expect(studentId).not.toBe('')

  // The pupil's profile is open (its data loaded; the Hub's too, from before) when the
  // connection drops.
  await page.getByRole('link', { name: "View Isla Walker's profile" }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Isla Walker' })).toBeVisible()
  await expect(page.getByText(/No comments yet|Comments could not/).or(page.getByRole('list', { name: 'Comments' }))).toBeVisible()
  await context.setOffline(true)

  await test.step('a comment on the pupil', async () => {
    await page.getByLabel('Add a comment').fill(`${marker}: reads aloud with confidence.`)
    await page.getByRole('button', { name: 'Add comment' }).click()
    await expect(page.getByText('Comment kept on this device.', { exact: true })).toBeVisible()
    const unsent = page.getByRole('list', { name: 'Comments not sent yet' })
    await expect(unsent).toContainText(`${marker}: reads aloud with confidence.`)
    await expect(unsent).toContainText('Not sent yet: it is in the Outbox.')
  })

  await test.step('two marks in the Feedback Hub', async () => {
    await page.getByRole('link', { name: 'Feedback Hub' }).first().click()
    await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
    await markOffline(page, 'Isla Walker', `${marker}: a persuasive letter.`)
    await markOffline(page, 'George Johnson', `${marker}: good paragraphs.`)
  })

  await test.step('three photos to analyse', async () => {
    await page.getByRole('button', { name: 'Analyse photos' }).click()
    const dialog = page.getByRole('dialog', { name: 'Analyse photos' })
    await expect(dialog).toBeVisible()
    const take = dialog.getByRole('button', { name: 'Take photo' })
    for (let i = 1; i <= 3; i++) {
      await take.click()
      await expect(dialog.getByText(`${i} of 10 photos`)).toBeVisible()
      await expect(dialog.getByText(/^Preparing/)).toHaveCount(0)
    }
    await dialog.getByRole('button', { name: 'Review photos' }).click()
    await dialog.getByLabel('Instructions for the AI').fill(`${marker}: feedback on the working`)
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog.getByText(/Your photos are kept on this device/)).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
  })

  await test.step('a voice note', async () => {
    await page.keyboard.press('Control+K')
    await page.getByPlaceholder('Search...').fill('New voice note')
    await page.getByRole('option', { name: 'New voice note' }).click()
    const recorder = page.getByRole('dialog', { name: 'Record voice note' })
    await expect(recorder.getByRole('status')).toHaveText('Recording')
    await expect(recorder.getByRole('timer', { name: 'Recording time' })).toHaveText(/^0:0[2-9]$/)
    await recorder.getByRole('button', { name: 'Stop' }).click()
    const save = page.getByRole('dialog', { name: 'Save voice note' })
    await save.getByLabel('Filename').fill(marker)
    await save.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByText('Voice note kept on this device.', { exact: true })).toBeVisible()
    await expect(save).toBeHidden()
  })

  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, 5 waiting')

  await test.step('reloaded offline, the app opens from the service worker with the five items', async () => {
    await page.reload()
    await expect(outboxButton(page)).toHaveAccessibleName('Outbox, 5 waiting')
    const panel = await openOutbox(page)
    await expect(panel.getByText('You are offline.', { exact: false })).toBeVisible()
    const rows = panel.getByRole('list', { name: 'Items in the outbox' }).getByRole('listitem')
    await expect(rows).toHaveCount(5)
    await expect(panel.getByRole('listitem', { name: /: Waiting$/ })).toHaveCount(5)
    for (const title of ['Feedback for Isla Walker', 'Feedback for George Johnson', 'Comment on Isla Walker', '3 photos to analyse', `Voice note ${marker}`])
      await expect(panel.getByText(new RegExp(`^${title}`))).toBeVisible()
    expect(await seriousViolations(page, '[role="dialog"]')).toEqual([])
  })

  await test.step('back online, every item reaches Sent', async () => {
    const panel = page.getByRole('dialog', { name: 'Outbox' })
    const started = Date.now()
    await context.setOffline(false)
    await expect(panel.getByRole('listitem', { name: /: Sent$/ })).toHaveCount(5, { timeout: 60_000 })
    console.log(`[figure] back online to the last of five items Sent: ${Date.now() - started} ms`)
    // The photos' answer is kept with the sent item.
    await panel.getByText('Show the answer').click()
    await expect(panel.getByText(/^Feedback on 3 photos:/)).toBeVisible()
    await panel.getByRole('button', { name: 'Close' }).click()
    await expect(outboxButton(page)).toHaveAccessibleName('Outbox, nothing waiting')
  })

  await test.step('the server holds exactly one of each', async () => {
    const comments = (await rpcQuery(page, 'student.comments', { id: studentId })) as { comment: string }[]
    expect(comments.filter((c) => c.comment.startsWith(marker))).toHaveLength(1)
    const hub = (await rpcQuery(page, 'feedback.list', NO_FILTER)) as { items: { studentForename: string }[] }
    expect(hub.items.map((item) => item.studentForename)).toEqual(['Ava'])
    const { notes } = (await rpcQuery(page, 'voiceNote.list')) as { notes: { filename: string }[] }
    expect(notes.filter((note) => note.filename.startsWith(marker))).toHaveLength(1)
    const requests = (await (await page.request.get(`${VISION_URL}/requests`)).json()) as { prompt: string }[]
    expect(requests.filter((request) => request.prompt.includes(marker))).toHaveLength(1)
  })
})

test('a dictation whose page closes two minutes in is offered back, and saves as a playable WAV', async ({ page, context, signIn }) => {
  test.setTimeout(300_000)
  await servers()
  await signIn('teacher')
  await page.goto('/feedback')
  const items = page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem')
  await items.first().getByRole('button').click()
  await page.getByRole('button', { name: 'Dictate' }).click()
  const drawer = page.getByRole('dialog', { name: 'Live dictation' })
  await expect(drawer.getByTestId('microphone-state')).toHaveText('open')
  const timer = drawer.getByRole('timer', { name: 'Dictation time' })
  await expect(timer).toContainText(/^2:0[0-9]/, { timeout: 180_000 })
  const [minutes, seconds] = (await timer.innerText()).split(' ')[0].split(':').map(Number)
  const recorded = minutes * 60 + seconds
  // The tab closes without any goodbye (no unload handler can save the day).
  await page.close({ runBeforeUnload: false })

  const again = await context.newPage()
  await again.goto('/')
  const dialog = again.getByRole('alertdialog', { name: /^Recovered dictation from / })
  await expect(dialog).toBeVisible()
  const title = (await dialog.getByRole('heading').first().innerText()).trim()
  const match = /^Recovered dictation from (\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2}) \((\d+) min (\d+) s\)$/.exec(title)
  expect(match, title).not.toBeNull()
  const kept = Number(match?.[6]) * 60 + Number(match?.[7])
  expect(kept).toBeGreaterThanOrEqual(119)
  console.log(`[figure] dictation recovery: ${recorded} s on the timer when the tab closed, ${kept} s recovered (whole seconds)`)
  expect(await seriousViolations(again, '[role="alertdialog"]')).toEqual([])

  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(again.getByText('Recovered dictation saved.', { exact: true })).toBeVisible()
  await expect(dialog).toBeHidden()
  // The outbox sends it to the voice notes; it is a WAV of all that was kept.
  let note: { filename: string; url: string } | undefined
  await expect
    .poll(
      async () => {
        const { notes } = (await rpcQuery(again, 'voiceNote.list')) as { notes: { filename: string; url: string }[] }
        note = notes.find((n) => n.filename.startsWith('Recovered dictation'))
        return note?.filename ?? ''
      },
      { timeout: 60_000 },
    )
    .toMatch(/^Recovered dictation \d{2}-\d{2}-\d{4} \d{2}-\d{2}\.wav$/)
  const body = await (await again.request.get(note?.url ?? '')).body()
  expect(body.toString('ascii', 0, 4)).toBe('RIFF')
  expect(body.toString('ascii', 8, 12)).toBe('WAVE')
  expect(body.readUInt32LE(24)).toBe(16_000)
  const dataSize = body.readUInt32LE(40)
  expect(dataSize).toBe(body.length - 44)
  expect(dataSize / 32_000).toBeGreaterThanOrEqual(119)
  // Nothing is offered again.
  await again.reload()
  await expect(again.getByRole('heading', { level: 1 })).toBeVisible()
  await expect(again.getByRole('alertdialog')).toHaveCount(0)
})

test('a message written offline is sent once the connection returns', async ({ page, context, signIn }) => {
  await servers()
  await signIn('teacher')
  await page.goto('/notifications/create?type=GENERAL')
  await expect(page.getByRole('heading', { level: 1, name: 'New message' })).toBeVisible()
  await expect(page.getByRole('checkbox', { name: /Year 7 English/ })).toBeVisible()
  await controlled(page)
  const title = `Trip letter ${Date.now().toString(36)}`
  await context.setOffline(true)
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.type('Bring a packed lunch on Friday.')
  await page.getByRole('checkbox', { name: /Year 7 English/ }).check()
  await page.getByRole('button', { name: 'Send message' }).click()
  await expect(page.getByText('Message kept on this device.', { exact: true })).toBeVisible()
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, 1 waiting')
  await context.setOffline(false)
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, nothing waiting', { timeout: 30_000 })
  const panel = await openOutbox(page)
  await expect(panel.getByRole('listitem', { name: `Message ${title}: Sent` })).toBeVisible()
  await panel.getByRole('button', { name: 'Close' }).click()
  // Exactly one such message on the server.
  await page.goto('/notifications')
  await expect(page.getByText(title, { exact: true })).toHaveCount(1)
})

test("a task's answers saved offline wait on the device, once, and are saved when the connection returns", async ({ page, context, signIn }) => {
  await servers()
  await signIn('teacher')
  await page.goto('/leaders/tasks/create')
  await expect(page.getByRole('heading', { level: 1, name: 'New task' })).toBeVisible()
  const title = `Offline task ${Date.now().toString(36)}`
  await page.getByLabel('Title').fill(title)
  await page.getByRole('radio').first().check()
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  const answer = page.getByRole('region', { name: 'Questions' }).getByRole('textbox').first()
  await expect(answer).toBeVisible()
  // The app's code is on the device (the service worker's precache) before the connection goes.
  await controlled(page)

  await context.setOffline(true)
  await answer.fill('Written on the train.')
  await page.locator('[data-tour="save-task"]').click()
  await expect(page.getByText('Your changes are kept on this device.', { exact: true })).toBeVisible()
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, 1 waiting')
  // Its message goes after a few seconds, so the next one shows that the second save was kept.
  await expect(page.getByText('Your changes are kept on this device.', { exact: true })).toHaveCount(0, { timeout: 15_000 })
  // A newer save replaces the one still waiting: it holds every change since the last saved text.
  await answer.fill('Written on the train, and finished at home.')
  await page.locator('[data-tour="save-task"]').click()
  await expect(page.getByText('Your changes are kept on this device.', { exact: true })).toBeVisible()
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, 1 waiting')

  await context.setOffline(false)
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, nothing waiting', { timeout: 30_000 })
  // The page builds its next save over what the outbox sent: no conflict with itself.
  await answer.fill('Written on the train, finished at home, and read again.')
  await page.locator('[data-tour="save-task"]').click()
  await expect(page.getByText('Draft saved.', { exact: true })).toBeVisible()
  await expect(page.getByText('Some answers were not saved')).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expect(page.getByRole('region', { name: 'Questions' }).getByRole('textbox').first()).toHaveValue(
    'Written on the train, finished at home, and read again.',
  )
})

test("a task's content added offline (a recording, a file, photos of notes) reaches the task once each", async ({ page, context, signIn }) => {
  test.setTimeout(120_000)
  await servers()
  await signIn('teacher')
  await page.goto('/leaders/tasks/create')
  await expect(page.getByRole('heading', { level: 1, name: 'New task' })).toBeVisible()
  const title = `Offline content ${Date.now().toString(36)}`
  await page.getByLabel('Title').fill(title)
  await page.getByRole('radio').first().check()
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  const taskId = /\/leaders\/tasks\/([^/]+)\/edit$/.exec(new URL(page.url()).pathname)?.[1] ?? ''
  expect(taskId).not.toBe('')
  const content = page.getByRole('region', { name: 'Content' })
  await expect(content.getByText('Nothing added yet.')).toBeVisible()
  await controlled(page)
  const visionBefore = ((await (await page.request.get(`${VISION_URL}/requests`)).json()) as unknown[]).length

  await test.step('a recording made online, kept when the connection drops before it is added', async () => {
    await content.getByRole('button', { name: 'Start recording' }).click()
    const drawer = page.getByRole('dialog', { name: 'Live dictation' })
    await expect(drawer.getByTestId('microphone-state')).toHaveText('open')
    await expect(drawer.getByRole('timer', { name: 'Dictation time' })).toContainText(/^0:0[3-9]/, { timeout: 20_000 })
    await drawer.getByRole('button', { name: 'Stop' }).click()
    await expect(drawer.getByTestId('connection-state')).toHaveText('closed')
    await context.setOffline(true)
    await drawer.getByRole('button', { name: 'Add to task' }).click()
    await expect(page.getByText('Recording kept on this device.', { exact: true })).toBeVisible()
  })

  await test.step('a file chosen offline', async () => {
    await content.getByLabel('Upload files').setInputFiles({
      name: 'visit-notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Observed a Year 7 reading lesson; strong questioning.'),
    })
    await expect(page.getByText('File kept on this device.', { exact: true })).toBeVisible()
  })

  await test.step('photos of handwritten notes taken offline', async () => {
    await content.getByRole('button', { name: 'Take photos of handwritten notes' }).click()
    const analyser = page.getByRole('dialog', { name: 'Analyse photos' })
    await analyser.getByRole('button', { name: 'Take photo' }).click()
    await expect(analyser.getByText('1 of 10 photos')).toBeVisible()
    await expect(analyser.getByText(/^Preparing/)).toHaveCount(0)
    await analyser.getByRole('button', { name: 'Review photos' }).click()
    await analyser.getByRole('button', { name: 'Confirm' }).click()
    await expect(analyser.getByText(/the notes will be added to this task\.$/)).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(analyser).toBeHidden()
  })

  const unsent = content.getByRole('list', { name: 'Content not sent yet' })
  await expect(unsent.getByRole('listitem')).toHaveCount(3)
  await expect(unsent.getByRole('listitem').filter({ hasText: /^Recording / })).toContainText('Not sent yet: it is in the Outbox.')
  await expect(unsent.getByRole('listitem').filter({ hasText: 'File visit-notes.txt' })).toBeVisible()
  await expect(unsent.getByRole('listitem').filter({ hasText: /^Photo notes \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/ })).toBeVisible()
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, 3 waiting')
  expect(await seriousViolations(page, '[aria-label="Content not sent yet"]')).toEqual([])

  await context.setOffline(false)
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, nothing waiting', { timeout: 60_000 })
  await expect(unsent).toHaveCount(0)
  const listed = content.getByRole('list', { name: 'Task content' }).getByRole('listitem')
  await expect(listed).toHaveCount(3)
  await expect(listed.filter({ hasText: 'visit-notes.txt' })).toBeVisible()
  // The notes are the vision model's answer, added without anyone coming back for them.
  await expect(listed.filter({ hasText: 'Photo notes' })).toContainText('Feedback on 1 photo')

  // Exactly one of each on the server, and the photos were read once.
  const items = (await rpcQuery(page, 'leader.listTaskFiles', { taskId })) as { kind: string; name: string; text: string | null }[]
  expect(items).toHaveLength(3)
  expect(items.filter((item) => item.name === 'visit-notes.txt')).toHaveLength(1)
  expect(items.filter((item) => item.name.startsWith('Photo notes'))).toHaveLength(1)
  expect(items.filter((item) => item.kind === 'RECORDING' && /^Recording .*\.wav$/.test(item.name))).toHaveLength(1)
  const visionAfter = ((await (await page.request.get(`${VISION_URL}/requests`)).json()) as unknown[]).length
  expect(visionAfter - visionBefore).toBe(1)
})

test('a mark the server refuses becomes Stuck with its sentence, and Discard removes it', async ({ page, context, signIn }) => {
  const { server } = await servers()
  await signIn('teacher')
  await page.goto('/feedback')
  const items = page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem')
  await expect(items.filter({ hasText: 'Ava Roberts' })).toHaveCount(1)
  await controlled(page)
  const hub = (await rpcQuery(page, 'feedback.list', NO_FILTER)) as { items: { submissionId: string; studentForename: string }[] }
  const ava = hub.items.find((item) => item.studentForename === 'Ava')
  expect(ava).toBeTruthy()

  await context.setOffline(true)
  await markOffline(page, 'Ava Roberts', 'Clear and well argued.')
  // Meanwhile the submission is deleted on the server.
  server.sql(`DELETE FROM submissions WHERE id = '${ava?.submissionId}'`)
  await context.setOffline(false)

  const panel = await openOutbox(page)
  const row = panel.getByRole('listitem', { name: /^Feedback for Ava Roberts/ })
  await expect(row).toContainText('Stuck')
  await expect(row).toContainText('Submission not found')
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([])
  await panel.getByRole('button', { name: 'Close' }).click()
  // Stuck is still on the device: it counts, and is tried no more by itself.
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, 1 waiting')
  await openOutbox(page)
  await row.getByRole('button', { name: 'Discard Feedback for Ava Roberts' }).click()
  await expect(row).toHaveCount(0)
  await expect(panel.getByText('Nothing is waiting to be sent.')).toBeVisible()
  await panel.getByRole('button', { name: 'Close' }).click()
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, nothing waiting')
})

test('Log out with something waiting warns first, then leaves nothing of the user on the device', async ({ page, signIn }) => {
  await servers()
  await signIn('teacher')
  // A pupil's profile: Isla Walker's from the test before (the Hub is empty by now), or
  // the first in the Hub when this test runs alone.
  if (!pupilPath) {
    await page.goto('/feedback')
    pupilPath = (await page.getByRole('link', { name: /^View .*'s profile$/ }).first().getAttribute('href')) ?? ''
  }
  await page.goto(pupilPath)
  await controlled(page)
  await expect(page.getByLabel('Add a comment')).toBeVisible()
  // The connection to the API fails (while the page itself still loads), so the comment waits.
  await page.route('**/api/trpc/student.addComment**', (route) => route.abort('internetdisconnected'))
  await page.getByLabel('Add a comment').fill('Kept until it is sent.')
  await page.getByRole('button', { name: 'Add comment' }).click()
  await expect(page.getByText('Comment kept on this device.', { exact: true })).toBeVisible()
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, 1 waiting')
  const stored = () =>
    page.evaluate(async () => {
      const names = (await indexedDB.databases()).map((d) => d.name)
      let records = 0
      if (names.includes('voicemark')) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open('voicemark')
          request.onsuccess = () => resolve(request.result)
          request.onerror = () => reject(request.error)
        })
        for (const store of Array.from(db.objectStoreNames)) {
          records += await new Promise<number>((resolve) => {
            const request = db.transaction(store).objectStore(store).count()
            request.onsuccess = () => resolve(request.result)
          })
        }
        db.close()
      }
      const cacheNames = await caches.keys()
      const cachedApi: string[] = []
      for (const name of cacheNames)
        for (const request of await (await caches.open(name)).keys()) if (request.url.includes('/api/')) cachedApi.push(request.url)
      const keys = Object.keys(localStorage).concat(Object.keys(sessionStorage)).filter((k) => k.startsWith('voicemark.'))
      return { records, otherCaches: cacheNames.filter((n) => !n.startsWith('workbox-precache')), cachedApi, keys }
    })
  expect((await stored()).records).toBeGreaterThan(0)
  expect((await stored()).keys).toContain('voicemark.session')

  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  const warning = page.getByRole('alertdialog', { name: '1 thing you captured has not been sent yet' })
  await expect(warning).toContainText('If you log out now, it is deleted from this device')
  expect(await seriousViolations(page, '[role="alertdialog"]')).toEqual([])
  // Staying keeps everything.
  await warning.getByRole('button', { name: 'Stay signed in' }).click()
  await expect(warning).toBeHidden()
  await expect(outboxButton(page)).toHaveAccessibleName('Outbox, 1 waiting')

  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Log out' }).click()
  await warning.getByRole('button', { name: 'Log out and delete it' }).click()
  await expect(page).toHaveURL(/\/login$/)
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible()
  expect(await stored()).toEqual({ records: 0, otherCaches: [], cachedApi: [], keys: [] })
})
