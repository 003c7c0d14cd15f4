// Voice notes end to end with Chromium's fake microphone: record from the palette's 'New
// voice note', the 'Save voice note' form (default name, required filename, personal
// folder), the upload with its progress bar, then playback, rename and delete on
// /voice-notes; a leader's /leaders/voice-notes; and a refused microphone.
import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'
import { refuseMicrophone } from '../fixtures/microphone'

async function seriousViolations(page: Page, include: string) {
  const results = await new AxeBuilder({ page }).include(include).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
}

/** Records for at least `seconds` in the open 'Record voice note' dialog, then stops. */
async function recordFor(page: Page, seconds: number): Promise<Locator> {
  const recorder = page.getByRole('dialog', { name: 'Record voice note' })
  await expect(recorder).toBeVisible()
  await expect(recorder.getByRole('status')).toHaveText('Recording')
  await expect(recorder.getByRole('timer', { name: 'Recording time' })).toHaveText(
    new RegExp(`^0:(0[${seconds}-9]|[1-5]\\d)$`),
  )
  await recorder.getByRole('button', { name: 'Stop' }).click()
  await expect(recorder).toBeHidden()
  const save = page.getByRole('dialog', { name: 'Save voice note' })
  await expect(save).toBeVisible()
  return save
}

/** Holds every storage PUT for a moment, so the progress bar can be seen. */
async function slowUploads(page: Page) {
  await page.route(
    (url) => !url.pathname.startsWith('/api/trpc'),
    async (route) => {
      if (route.request().method() === 'PUT') await new Promise((resolve) => setTimeout(resolve, 1_000))
      await route.continue()
    },
  )
}

async function expectPlayableAudio(page: Page, item: Locator, type: RegExp) {
  const src = await item.locator('audio').getAttribute('src')
  expect(src).toBeTruthy()
  const response = await page.request.get(src ?? '')
  expect(response.status()).toBe(200)
  expect(response.headers()['content-type']).toMatch(type)
  expect((await response.body()).length).toBeGreaterThan(0)
}

test('a teacher records a note from the palette, saves it with progress, then plays, renames and deletes it', async ({
  page,
  signIn,
}) => {
  test.setTimeout(60_000)
  await signIn('teacher')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await page.keyboard.press('Control+K')
  await page.getByPlaceholder('Search...').fill('New voice note')
  await page.getByRole('option', { name: 'New voice note' }).click()

  const recorder = page.getByRole('dialog', { name: 'Record voice note' })
  await expect(recorder).toBeVisible()
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([])
  const save = await recordFor(page, 2)

  const filename = save.getByLabel('Filename')
  await expect(filename).toHaveValue(/^Voice note \d{2}-\d{2}-\d{4} \d{2}-\d{2}$/)
  await expect(save.getByRole('checkbox', { name: 'Save to personal folder' })).toBeChecked()
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([])

  await filename.fill('   ')
  await save.getByRole('button', { name: 'Save' }).click()
  await expect(save.getByText('Filename is required')).toBeVisible()
  await expect(filename).toHaveAttribute('aria-invalid', 'true')

  await slowUploads(page)
  await filename.fill('Year 7 essays')
  await save.getByRole('button', { name: 'Save' }).click()
  await expect(save.getByRole('progressbar', { name: 'Uploading voice note' })).toBeVisible()
  await expect(page.getByText('Voice note saved.', { exact: true })).toBeVisible()
  await expect(save).toBeHidden()

  await page.goto('/voice-notes')
  await expect(page.getByRole('heading', { level: 1, name: 'Voice notes' })).toBeVisible()
  const list = page.getByRole('list', { name: 'Your voice notes' })
  // By its accessible name (the filename), which stays while its name is being edited.
  const item = list.getByRole('listitem', { name: /^Year 7 essays/ })
  await expect(item).toHaveCount(1)
  await expect(item.getByText(/^Year 7 essays\.(m4a|webm|ogg)$/)).toBeVisible()
  await expect(item.locator('time')).toHaveText(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}$/)
  await expectPlayableAudio(page, item, /^audio\/(mp4|webm|ogg)/)

  // Rename: the name is required here too.
  await item.getByRole('button', { name: /^Rename / }).click()
  const newName = item.getByLabel('New filename')
  await newName.fill('')
  await item.getByRole('button', { name: 'Save name' }).click()
  await expect(item.getByText('Filename is required')).toBeVisible()
  await newName.fill('Essay feedback, set 2')
  await item.getByRole('button', { name: 'Save name' }).click()
  const renamed = list.getByRole('listitem', { name: 'Essay feedback, set 2', exact: true })
  await expect(renamed).toHaveCount(1)
  await expect(item).toHaveCount(0)
  await page.reload()
  await expect(renamed).toHaveCount(1)

  // Delete, after confirming.
  await renamed.getByRole('button', { name: /^Delete / }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete voice note?' })
  await expect(confirm).toContainText('Essay feedback, set 2')
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('Voice note deleted.', { exact: true })).toBeVisible()
  await expect(renamed).toHaveCount(0)
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Voice notes' })).toBeVisible()
  await expect(page.getByText('Essay feedback, set 2')).toHaveCount(0)
})

test('a leader records and lists notes on /leaders/voice-notes', async ({ page, signIn }) => {
  await signIn('riversideLeader')
  await page.goto('/leaders/voice-notes')
  await expect(page.getByRole('heading', { level: 1, name: 'Voice notes' })).toBeVisible()
  await expect(page.getByText('No voice notes yet', { exact: true })).toBeVisible()
  await expect(page.getByText('Record one to keep it here.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Record a voice note' })).toBeVisible()
  expect(await seriousViolations(page, 'main')).toEqual([])

  await page.getByRole('button', { name: 'Record voice note' }).click()
  const save = await recordFor(page, 1)
  await save.getByLabel('Filename').fill('Staff meeting actions')
  await save.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByText('Voice note saved.', { exact: true })).toBeVisible()

  const item = page.getByRole('list', { name: 'Your voice notes' }).getByRole('listitem')
  await expect(item).toHaveCount(1)
  await expect(item).toContainText('Staff meeting actions')
  await expectPlayableAudio(page, item, /^audio\//)
})

test('a refused microphone says so and records nothing', async ({ page, signIn }) => {
  await signIn('teacher')
  await refuseMicrophone(page)
  await page.goto('/voice-notes')
  await page.getByRole('button', { name: 'Record voice note' }).click()
  await expect(page.getByText('Unable to access microphone', { exact: true })).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Record voice note' })).toBeHidden()
  await expect(page.getByRole('dialog', { name: 'Save voice note' })).toBeHidden()
})

test('a failed upload says so with the filename and keeps the form for another try', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/voice-notes')
  await page.getByRole('button', { name: 'Record voice note' }).click()
  const save = await recordFor(page, 1)
  // The storage refuses the PUT.
  await page.route(
    (url) => !url.pathname.startsWith('/api/trpc'),
    (route) => (route.request().method() === 'PUT' ? route.fulfill({ status: 503, body: 'unavailable' }) : route.continue()),
  )
  await save.getByLabel('Filename').fill('Unlucky note')
  await save.getByRole('button', { name: 'Save' }).click()
  const toast = page.locator('li').filter({ hasText: 'Upload failed' })
  await expect(toast).toContainText(/Unlucky note\.(m4a|webm|ogg)/)
  await expect(save).toBeVisible()
  await expect(save.getByRole('button', { name: 'Save' })).toBeEnabled()
  await page.goto('/voice-notes')
  await expect(page.getByRole('heading', { level: 1, name: 'Voice notes' })).toBeVisible()
  await expect(page.getByText(/Unlucky note/)).toHaveCount(0)
})
