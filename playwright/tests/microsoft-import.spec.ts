// Microsoft 365 in a task's content step (issue 13 points 5 and 7, docs/microsoft-graph.md)
// on a server of this file's own, pointed at the stub identity platform
// (stubs/microsoft-server.mjs) and a stub Graph (stubs/graph-server.mjs) that accepts only
// the access tokens the identity stub issued. Both stubs and the server take free ports, so
// the chromium and postgres projects can run this file side by side. A leader opens a
// task's content step, connects Microsoft (consent at the stand-in), imports a Teams
// recording and a OneDrive file, and sees the recording's Teams transcript and the file's
// text once they are ready; the download host never sees the token; axe finds nothing
// serious in the dialog; Disconnect offers Connect again. Each callback outcome is said.
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'

import { startVoicemark, type Backend, type Voicemark } from '../fixtures/smtp'
import { SPEECH_URL } from '../fixtures/ports'
import { PASSWORD, USERS } from '../fixtures/users'
import { NOTES_TEXT, SCHEME_TEXT, SITE, startGraphStub, TRANSCRIPT_LINES, type GraphStub } from '../stubs/graph-server.mjs'
import { startMicrosoftStub, STUB_CLIENT_ID, STUB_CLIENT_SECRET, type MicrosoftStub } from '../stubs/microsoft-server.mjs'

test.describe.configure({ mode: 'serial' })

/** The Deepgram stand-in playwright.config.ts starts (the fallback for recordings without a Teams transcript). */
const SPEECH_STUB = SPEECH_URL
const CONNECT = 'Connect Microsoft account'

let identity: MicrosoftStub | undefined
let graph: GraphStub | undefined
let server: Voicemark | undefined

test.beforeAll(async ({}, testInfo) => {
  test.setTimeout(60_000)
  const backend: Backend = testInfo.project.name === 'postgres' ? 'postgres' : 'sqlite'
  identity = await startMicrosoftStub()
  graph = await startGraphStub({ identity })
  server = await startVoicemark({
    backend,
    env: {
      VOICEMARK_MICROSOFT_CLIENT_ID: STUB_CLIENT_ID,
      VOICEMARK_MICROSOFT_CLIENT_SECRET: STUB_CLIENT_SECRET,
      VOICEMARK_MICROSOFT_TENANT_ID: 'organizations',
      VOICEMARK_MICROSOFT_LOGIN_URL: identity.origin,
      VOICEMARK_GRAPH_URL: graph.url,
      VOICEMARK_DEEPGRAM_URL: SPEECH_STUB,
      VOICEMARK_DEEPGRAM_API_KEY: 'stub-deepgram-key',
    },
  })
})

test.afterAll(async () => {
  await server?.stop()
  await graph?.stop()
  await identity?.stop()
})

// eslint-disable-next-line no-empty-pattern
test.use({ baseURL: async ({}, use) => use(server?.baseURL ?? '') })

async function signInAsLeader(page: Page) {
  const csrf = await page.request.get('/api/auth/csrf')
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const response = await page.request.post('/api/auth/callback/credentials', {
    form: { email: USERS.admin, password: PASSWORD, csrfToken, callbackUrl: '/', json: 'true' },
  })
  const { url } = (await response.json()) as { url?: string }
  expect(url ?? '').not.toContain('error=')
}

/** Creates a task from the demo's "Lesson observation" template and lands on its edit page. */
async function openNewTask(page: Page): Promise<string> {
  await page.goto('/leaders/tasks/create')
  await page.getByLabel('Title').fill(`Microsoft import ${Date.now().toString(36)}`)
  await page.getByRole('radio', { name: /Lesson observation/ }).check()
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(/\/leaders\/tasks\/[^/]+\/edit$/)
  await expect(page.getByRole('region', { name: 'Content' })).toBeVisible()
  return new URL(page.url()).pathname
}

async function seriousViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page })
  const results = await (include ? builder.include(include) : builder).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
}

/** `20/11/2026, 09:00` in this machine's time zone (the browser's), as the app shows dates. */
function shown(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(at.getDate())}/${pad(at.getMonth() + 1)}/${at.getFullYear()}, ${pad(at.getHours())}:${pad(at.getMinutes())}`
}

function contentItem(page: Page, name: string) {
  return page.getByRole('list', { name: 'Task content' }).getByRole('listitem').filter({ hasText: name })
}

test('a leader connects Microsoft and imports a Teams recording and a OneDrive file into a task', async ({ page }) => {
  // A whole journey (sign-in, consent, two imports, transcription, axe): 25-30 s on a quiet
  // machine, so the default 30 s left no margin.
  test.setTimeout(90_000)
  await signInAsLeader(page)
  const taskPath = await openNewTask(page)
  const microsoft = page.getByRole('region', { name: 'Microsoft 365' })
  await expect(microsoft.getByText('Connect your Microsoft account to bring in files from OneDrive')).toBeVisible()

  // Connect, by keyboard: the stand-in's consent page, then back to the task.
  const connect = microsoft.getByRole('button', { name: CONNECT, exact: true })
  await connect.focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`^${identity!.origin}/organizations/oauth2/v2\\.0/authorize\\?`))
  const scopes = new URL(page.url()).searchParams.get('scope')?.split(' ') ?? []
  expect(scopes).toEqual(expect.arrayContaining(['offline_access', 'Files.Read.All', 'OnlineMeetingRecording.Read.All', 'OnlineMeetingTranscript.Read.All']))
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible()
  await page.getByLabel('Email address').fill(USERS.admin)
  await page.getByRole('button', { name: 'Next' }).click()
  await expect(page).toHaveURL(taskPath)
  await expect(microsoft.getByRole('status')).toHaveText(
    'Your Microsoft account is connected. You can now import files and Teams recordings.',
  )
  await expect(microsoft.getByRole('button', { name: CONNECT, exact: true })).toHaveCount(0)

  // The dialog: Files first, the OneDrive root across two Graph pages.
  await microsoft.getByRole('button', { name: 'Import from Microsoft 365' }).click()
  const dialog = page.getByRole('dialog', { name: 'Import from Microsoft 365' })
  await expect(dialog.getByRole('tab', { name: 'Files' })).toHaveAttribute('aria-selected', 'true')
  const files = dialog.getByRole('tabpanel', { name: 'Files' })
  await expect(files.getByRole('navigation', { name: 'Folder path' })).toHaveText('My files')
  await expect(files.getByRole('button', { name: /Lessons/ })).toBeVisible()
  await expect(files.getByRole('button', { name: /Recordings/ })).toBeVisible()
  await expect(files.getByRole('checkbox', { name: /Seating plan\.txt/ })).toBeVisible()
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([])

  // Into a folder, choose a file, back by the breadcrumb: the choice is kept.
  await files.getByRole('button', { name: /Lessons/ }).click()
  await expect(files.getByRole('navigation', { name: 'Folder path' })).toHaveText('My files/Lessons')
  await files.getByRole('checkbox', { name: /Photosynthesis notes\.txt/ }).check()
  await files.getByRole('button', { name: 'My files' }).click()
  await expect(files.getByRole('checkbox', { name: /Seating plan\.txt/ })).not.toBeChecked()
  await expect(dialog.getByText('1 item chosen')).toBeVisible()

  // A followed SharePoint site's library, chosen under Location: its file joins the choice.
  const location = files.getByLabel('Location')
  await location.selectOption({ label: `${SITE.displayName} › Documents` })
  await expect(files.getByRole('navigation', { name: 'Folder path' })).toHaveText(`${SITE.displayName} › Documents`)
  await files.getByRole('checkbox', { name: /Scheme of work\.txt/ }).check()
  await expect(dialog.getByText('2 items chosen')).toBeVisible()
  await location.selectOption({ label: 'My OneDrive' })
  await expect(files.getByRole('navigation', { name: 'Folder path' })).toHaveText('My files')

  // Teams recordings, reached with the arrow key: dated, saying which have a transcript.
  await dialog.getByRole('tab', { name: 'Files' }).focus()
  await page.keyboard.press('ArrowRight')
  await expect(dialog.getByRole('tab', { name: 'Teams recordings' })).toHaveAttribute('aria-selected', 'true')
  const recordings = dialog.getByRole('tabpanel', { name: 'Teams recordings' })
  const first = new Date()
  first.setUTCDate(first.getUTCDate() - 2)
  first.setUTCHours(9, 0, 5, 0)
  const second = new Date()
  second.setUTCDate(second.getUTCDate() - 5)
  second.setUTCHours(13, 30, 5, 0)
  const withTranscript = recordings.getByRole('listitem').filter({ hasText: `Teams recording ${shown(first)}` })
  await expect(withTranscript).toContainText('Teams transcript available')
  await expect(recordings.getByRole('listitem').filter({ hasText: `Teams recording ${shown(second)}` })).toContainText(
    'No Teams transcript: it will be transcribed',
  )
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([])
  await withTranscript.getByRole('checkbox').check()
  await expect(dialog.getByText('3 items chosen')).toBeVisible()
  await dialog.getByRole('button', { name: 'Import', exact: true }).click()
  await expect(dialog).toBeHidden()

  // Both arrive in the content list and become Ready: the recording with Teams' transcript
  // (from the VTT), the file with its text.
  const pad = (n: number) => String(n).padStart(2, '0')
  const recordingName = `Teams recording ${pad(first.getDate())}-${pad(first.getMonth() + 1)}-${first.getFullYear()} ${pad(first.getHours())}.${pad(first.getMinutes())}.mp4`
  const recording = contentItem(page, recordingName)
  await expect(recording.getByText('Ready')).toBeVisible({ timeout: 20_000 })
  await expect(recording).toContainText('Recording')
  await recording.getByRole('button', { name: 'Show all text' }).click()
  for (const line of TRANSCRIPT_LINES) await expect(recording).toContainText(line)
  const notes = contentItem(page, 'Photosynthesis notes.txt')
  await expect(notes.getByText('Ready')).toBeVisible({ timeout: 20_000 })
  await expect(notes).toContainText(NOTES_TEXT)
  const scheme = contentItem(page, 'Scheme of work.txt')
  await expect(scheme.getByText('Ready')).toBeVisible({ timeout: 20_000 })
  await expect(scheme).toContainText(SCHEME_TEXT)

  // The pre-authenticated download host was never sent the token.
  expect(graph!.seen.map((s) => s.uniqueId).sort()).toEqual(['01NOTES', '02SCHEME', 'RecOne'])
  expect(graph!.seen.every((s) => s.authorization === null)).toBe(true)

  // Disconnect: Connect is offered again.
  await microsoft.getByRole('button', { name: 'Disconnect Microsoft account' }).click()
  await expect(microsoft.getByRole('button', { name: CONNECT, exact: true })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
})

test('each way back from Microsoft is said plainly', async ({ page }) => {
  await signInAsLeader(page)
  const taskPath = await openNewTask(page)
  const microsoft = page.getByRole('region', { name: 'Microsoft 365' })
  const outcomes: Record<string, string> = {
    declined: 'You did not give Voicemark access to your Microsoft account, so nothing was connected.',
    'not-linked': 'That Microsoft account is already linked to another Voicemark user. Connect your own Microsoft account.',
    refused: 'Microsoft did not connect your account. Please try again.',
    unavailable: 'Microsoft could not be reached. Please try again later.',
  }
  for (const [outcome, text] of Object.entries(outcomes)) {
    await page.goto(`${taskPath}?microsoft=${outcome}`)
    await expect(microsoft.getByRole('alert')).toHaveText(text)
    await expect(page).toHaveURL(taskPath)
    await expect(microsoft.getByRole('button', { name: CONNECT, exact: true })).toBeVisible()
  }
})
