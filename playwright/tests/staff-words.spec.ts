// Issue 26, items 2-5, 11 and 12 (helper C): staff read plain sentences, never a setting name,
// a docs path or an error code; a capability that is off is said before any work starts, with
// its control disabled; a superadmin finds the settings on /setup; upgrade calls reach only
// those who may pay, and everyone else reads who can; a superadmin without an organisation gets
// one calm empty state; the photo analyser's Escape, off state and notes mode; sign-in's error
// page; no React Router HydrateFallback warning.
import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'
import { USERS } from '../fixtures/users'
import { VISION_URL } from '../fixtures/ports'

/** Answers `system.features` as a server with the given capabilities off would. */
async function featuresOff(page: Page, off: { chat?: boolean; photoAnalysis?: boolean; dictation?: boolean }) {
  await page.route('**/api/trpc/**', async (route) => {
    const url = new URL(route.request().url())
    const paths = decodeURIComponent(url.pathname.replace('/api/trpc/', '')).split(',')
    const at = paths.indexOf('system.features')
    if (at < 0) return route.fallback()
    const response = await route.fetch()
    const body = (await response.json()) as { result: { data: { json: Record<string, unknown> } } }[]
    const json = body[at].result.data.json
    for (const [key, value] of Object.entries(off)) if (value) json[key] = false
    await route.fulfill({ response, json: body })
  })
}

/** The page's visible text has no setting name, docs path or tRPC code. */
async function expectNoServerWords(page: Page) {
  const text = await page.locator('body').innerText()
  expect(text).not.toMatch(/VOICEMARK_|docs\/|\.md\b|FORBIDDEN|PRECONDITION_FAILED|BAD_REQUEST|redirectToLeaders/)
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
}

const WRITING_OFF = 'Report writing is not switched on for your school yet. Ask your administrator.'

test.describe('item 2: a capability that is off is said in plain words before work starts', () => {
  test('the report generator says so at once and Generate is disabled', async ({ page, signIn }) => {
    await featuresOff(page, { chat: true })
    await signIn('admin')
    await page.goto('/leaders/report-generator')
    await expect(page.getByRole('heading', { level: 1, name: 'Report generator' })).toBeVisible()
    await expect(page.getByText(WRITING_OFF)).toBeVisible()
    await expect(page.getByRole('button', { name: 'Generate' })).toBeDisabled()
    await expectNoServerWords(page)
  })

  test('the AI assistant says so without a setting name', async ({ page, signIn }) => {
    await featuresOff(page, { chat: true })
    await signIn('teacher')
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
    await page.getByRole('button', { name: /AI assistant/ }).first().click()
    const sheet = page.getByRole('dialog', { name: 'AI assistant' })
    await expect(sheet.getByText('The AI assistant is not switched on for your school yet. Ask your administrator.')).toBeVisible()
    await expectNoServerWords(page)
  })

  test('a task page says autofill is off once, with its buttons disabled, and Microsoft 365 plainly', async ({ page, signIn }) => {
    await featuresOff(page, { chat: true })
    await signIn('teacher')
    await page.goto('/leaders/tasks/create')
    await expect(page.getByRole('heading', { level: 1, name: 'New task' })).toBeVisible()
    await page.getByLabel('Title').fill(`Plain words ${Date.now()}`)
    await page.getByRole('radio').first().check()
    await page.getByRole('button', { name: 'Create' }).click()
    await expect(page).toHaveURL(/\/leaders\/tasks\/[^/]+\/edit$/)
    const autofillOff = page.getByText('AI autofill is not switched on for your school yet. Ask your administrator.')
    await expect(autofillOff).toHaveCount(1)
    await expect(page.getByRole('button', { name: 'Autofill Response' })).toBeDisabled()
    const formatting = page.getByRole('button', { name: 'AI Formatting' })
    for (let i = 0; i < (await formatting.count()); i += 1) await expect(formatting.nth(i)).toBeDisabled()
    // The e2e server has no Microsoft app: the box says so as a sentence.
    await expect(
      page.getByText('Microsoft 365 is not switched on for your school yet. Ask your administrator.'),
    ).toBeVisible()
    await expectNoServerWords(page)
  })

  test('staff pages never show a setting name, a docs path or a code', async ({ page, signIn }) => {
    await featuresOff(page, { chat: true, photoAnalysis: true, dictation: true })
    await signIn('admin')
    for (const path of ['/', '/feedback', '/voice-notes', '/leaders/tasks', '/leaders/report-generator', '/leaders/users']) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
      await expectNoServerWords(page)
    }
    // The Upgrade dialog without card payments.
    await page.goto('/leaders/tasks')
    await page.getByRole('banner').getByRole('button', { name: 'Upgrade to Pro' }).click()
    const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro' })
    await expect(dialog).toContainText('Card payments are not switched on yet')
    await expectNoServerWords(page)
  })

  test('a superadmin finds every capability and its settings on /setup', async ({ page, signIn }) => {
    await signIn('superadmin')
    await page.goto('/')
    await page.getByRole('navigation', { name: 'Superadmin' }).getByRole('link', { name: 'Setup' }).click()
    await expect(page).toHaveURL('/setup')
    await expect(page.getByRole('heading', { level: 1, name: 'Setup' })).toBeVisible()
    const list = page.getByRole('list', { name: 'Capabilities' })
    for (const name of ['AI writing', 'Photo reading', 'Live dictation', 'Recorded audio transcription', 'Billing', 'Microsoft 365', 'MIS sync', 'E-mail', 'File storage', 'Metrics'])
      await expect(list.getByRole('heading', { level: 2, name })).toBeVisible()
    const card = (name: string) => list.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) })
    // The e2e server has a vision model and a speech stub, and no Stripe.
    await expect(card('Photo reading')).toContainText('On')
    await expect(card('Billing').getByText('Off', { exact: true })).toBeVisible()
    await expect(card('Billing').getByRole('row', { name: /VOICEMARK_STRIPE_SECRET_KEY/ })).toContainText('Not set')
    await expect(card('Photo reading').getByRole('row', { name: /VOICEMARK_VISION_API_KEY/ })).toContainText('Set')
    await expect(card('Billing')).toContainText('docs/billing.md')
    // Each capability says which provider it uses and where its data goes, in plain words.
    await expect(card('Photo reading')).toContainText(/at 127\.0\.0\.1:\d+: the photos are sent there\./)
    await expect(card('Live dictation')).toContainText(/through Deepgram at 127\.0\.0\.1:\d+: the browser streams what is said there/)
    await expect(card('Recorded audio transcription')).toContainText(/through Deepgram at 127\.0\.0\.1:\d+: voice notes and recordings are sent there\./)
    // Whether a key is set, never its value.
    await expect(page.locator('body')).not.toContainText('stub-vision-key')
    expect(await seriousViolations(page)).toEqual([])
  })

  test("a staff member cannot open /setup, and the New organisation dialog has no field names", async ({ page, signIn }) => {
    await signIn('admin')
    await page.goto('/setup')
    await expect(page.getByText('You do not have access to this page.')).toBeVisible()
    await page.context().clearCookies()
    await signIn('superadmin')
    await page.goto('/schools')
    await expect(page.getByRole('heading', { level: 1, name: 'Manage organisations' })).toBeVisible()
    await page.getByRole('button', { name: /New organisation/ }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByText('Send users straight to the leaders area')).toBeVisible()
    await expect(dialog).not.toContainText('redirectToLeaders')
  })
})

test.describe('items 3 and 4: upgrade calls and errors in words, for those who may pay', () => {
  test("a teacher choosing 'Upgrade to Pro' reads the plan and whom to ask, never FORBIDDEN", async ({ page, signIn }) => {
    await signIn('teacher')
    await page.goto('/')
    await page.getByRole('button', { name: 'User menu' }).click()
    await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(['Settings', 'Upgrade to Pro', 'Log out'])
    await page.getByRole('menuitem', { name: 'Upgrade to Pro' }).click()
    const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro' })
    await expect(dialog).toContainText('Your school is on the Basic plan.')
    await expect(dialog).toContainText('Your school’s admins can upgrade your school to Pro.')
    const admins = dialog.getByRole('list', { name: "Your school's admins" })
    await expect(admins).toContainText(USERS.admin)
    await expect(admins.getByRole('link', { name: /^Ask / }).first()).toHaveAttribute('href', /^mailto:/)
    await expect(dialog).not.toContainText('FORBIDDEN')
    await expect(dialog.getByRole('alert')).toHaveCount(0)
    expect(await seriousViolations(page)).toEqual([])
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect(dialog).toBeHidden()
  })

  test('in the leaders area only admins get the upgrade button; others read who can', async ({ page, signIn }) => {
    await signIn('teacher')
    await page.goto('/leaders/tasks')
    await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible()
    await expect(page.getByRole('banner').getByRole('button', { name: 'Upgrade to Pro' })).toHaveCount(0)
    await expect(page.getByText('Unlock more features')).toHaveCount(0)
  })

  test("an admin's 'Contact support' keeps them in the pupil area", async ({ page, signIn }) => {
    await signIn('admin')
    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
    await page.getByRole('button', { name: 'User menu' }).click()
    await page.getByRole('menuitem', { name: 'Upgrade to Pro' }).click()
    const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro' })
    await dialog.getByRole('button', { name: 'Contact support' }).click()
    await expect(page).toHaveURL('/support')
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' })).toBeVisible()
  })
})

test.describe('item 5: a superadmin with no organisation chosen', () => {
  test('each school page shows one calm empty state and its main action disabled', async ({ page, signIn }) => {
    await signIn('superadmin')
    for (const [path, title, action] of [
      ['/leaders/tasks', 'Tasks', 'New task'],
      ['/leaders/users', 'Manage Users', 'Invite user'],
      ['/leaders/report-generator', 'Report generator', 'Generate'],
      ['/', 'Dashboard', null],
    ] as const) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
      await expect(page.getByText('No organisation chosen', { exact: true })).toHaveCount(1)
      await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0)
      await expect(page.getByText(/could not be loaded/)).toHaveCount(0)
      if (action) await expect(page.getByRole('main').getByRole('button', { name: action })).toBeDisabled()
    }
    expect(await seriousViolations(page)).toEqual([])
  })

  test('choosing an organisation from the empty state opens the page', async ({ page, signIn }) => {
    await signIn('superadmin')
    await page.goto('/leaders/tasks')
    await page.getByRole('main').getByRole('button', { name: 'Choose an organisation' }).click()
    const picker = page.getByRole('dialog', { name: 'Choose an organisation' })
    await picker.getByLabel('Search organisations').fill('Northbridge')
    await picker.getByRole('option', { name: /Northbridge Academy/ }).click()
    await expect(page.getByLabel('Search tasks')).toBeVisible()
    await expect(page.locator('[data-tour="new-task"]')).toBeEnabled()
    await expect(page.getByText('No organisation chosen', { exact: true })).toHaveCount(0)
  })
})

async function openAnalyser(page: Page): Promise<Locator> {
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await page.keyboard.press('Control+K')
  await page.getByPlaceholder('Search...').fill('New photo')
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Analyse photos' })
  await expect(dialog).toBeVisible()
  return dialog
}

test.describe('item 11: the photo analyser', () => {
  test('with no camera, Escape closes the dialog the first time', async ({ page, signIn }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('No camera', 'NotFoundError'))
    })
    await signIn('teacher')
    const dialog = await openAnalyser(page)
    await expect(dialog.getByRole('alert')).toHaveText('Unable to access camera')
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
  })

  test('when analysis is off the dialog says so before any photo, with no camera', async ({ page, signIn }) => {
    await featuresOff(page, { photoAnalysis: true })
    await signIn('teacher')
    const dialog = await openAnalyser(page)
    await expect(
      dialog.getByText('AI photo analysis is not switched on for your school yet. Ask your administrator.'),
    ).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Take photo' })).toHaveCount(0)
    await expect(dialog.getByLabel('Camera preview')).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Close', exact: true }).last().click()
    await expect(dialog).toBeHidden()
  })
})

test.describe('item 12: spec points', () => {
  test('Convert to notes has the model write notes from the photos; Back to camera resets', async ({ page, signIn }) => {
    await signIn('teacher')
    const dialog = await openAnalyser(page)
    const take = dialog.getByRole('button', { name: 'Take photo' })
    await take.click()
    await expect(dialog.getByText('1 of 10 photos')).toBeVisible()
    await expect(dialog.getByText(/^Preparing/)).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Review photos' }).click()
    const marker = `notes-${Date.now()}`
    await dialog.getByLabel('Instructions for the AI').fill(`Feedback please ${marker}`)
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog.getByRole('textbox', { name: 'AI response' })).toHaveValue(/^Feedback on 1 photo/)

    await dialog.getByRole('button', { name: 'Convert to notes' }).click()
    await expect(dialog.getByRole('textbox', { name: 'Notes' })).toHaveValue(/^Notes from 1 photo:\n- Question 3/)
    // The stub saw a notes request (the model's notes prompt), not the browser reformatting.
    const requests = (await (await page.request.get(`${VISION_URL}/requests`)).json()) as { mode: string; prompt: string }[]
    expect(requests.some((r) => r.mode === 'notes')).toBe(true)
    await expect(dialog.getByRole('button', { name: 'Convert to notes' })).toHaveCount(0)

    await dialog.getByRole('button', { name: 'Back to camera' }).click()
    await expect(dialog.getByText('0 of 10 photos')).toBeVisible()
    await expect(dialog.getByRole('tab', { name: 'Review' })).toBeDisabled()
    await expect(dialog.getByRole('tab', { name: 'AI Response' })).toBeDisabled()
    // Mode reset too: a new analysis is feedback again.
    await take.click()
    await expect(dialog.getByText('1 of 10 photos')).toBeVisible()
    await expect(dialog.getByText(/^Preparing/)).toHaveCount(0)
    await dialog.getByRole('button', { name: 'Review photos' }).click()
    await dialog.getByRole('button', { name: 'Confirm' }).click()
    await expect(dialog.getByRole('textbox', { name: 'AI response' })).toHaveValue(/^Feedback on 1 photo/)
    await expect(dialog.getByRole('button', { name: 'Convert to notes' })).toBeVisible()
  })

  test('when sign-in providers cannot be loaded, /login is an error page with a retry', async ({ page }) => {
    let fail = true
    await page.route('**/api/auth/providers', (route) =>
      fail ? route.fulfill({ status: 500, body: 'down' }) : route.fallback(),
    )
    await page.goto('/login')
    await expect(page.getByRole('heading', { level: 1, name: 'Sign-in is not available just now' })).toBeVisible()
    await expect(page.getByText('Voicemark could not load the ways to sign in.')).toBeVisible()
    fail = false
    await page.getByRole('button', { name: 'Try again' }).click()
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible()
    await expect(page.getByLabel('Email')).toBeVisible()
  })

  test('no page load warns "No HydrateFallback element"', async ({ page, signIn }) => {
    const warnings: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text())
    })
    await page.goto('/login')
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible()
    await signIn('admin')
    for (const path of ['/', '/feedback', '/leaders/tasks', '/leaders/report-generator', '/settings']) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    }
    expect(warnings.filter((w) => w.includes('HydrateFallback'))).toEqual([])
  })
})
