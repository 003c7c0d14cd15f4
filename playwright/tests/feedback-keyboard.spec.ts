// Issue 28 items 4 to 6 on a server of this file's own (more handed-in work than the shared
// demo has, and the feedback e-mails checked): a teacher marks five submissions from the
// keyboard alone (K, Enter, 1 2 3, Esc, Ctrl+Enter), bulk-marks three more with one comment
// whose {name} each pupil gets filled, and '?' lists the keys. The Hub, with its keys dialog
// open, has no serious violation.
import { randomUUID } from 'node:crypto'

import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'
import { VISION_URL } from '../fixtures/ports'
import { mailServersForFile } from '../fixtures/smtp'

test.describe.configure({ mode: 'serial' })

// The photo analyser reads the pictures handed in through the stub vision server.
const servers = mailServersForFile(test, {
  VOICEMARK_VISION_BASE_URL: `${VISION_URL}/v1`,
  VOICEMARK_VISION_MODEL: 'stub-vision',
  VOICEMARK_VISION_API_KEY: 'stub-vision-key',
})
const SUBJECT = 'Feedback on Persuasive letter'

test.beforeAll(async () => {
  const { server } = await servers()
  // Six more Year 7 pupils hand in the demo's "Persuasive letter": nine wait in all.
  const letter = "(SELECT id FROM notifications WHERE title = 'Persuasive letter')"
  const pupils = server
    .sql(
      `SELECT r.student_id FROM notification_receipts r WHERE r.notification_id = ${letter}
       AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.student_id = r.student_id AND s.notification_id = r.notification_id)
       ORDER BY r.student_id LIMIT 6`,
    )
    .split(/\s+/)
  expect(pupils).toHaveLength(6)
  for (const pupil of pupils) {
    const id = randomUUID()
    server.sql(
      `INSERT INTO submissions (id, created_at, updated_at, received_at, content, token, notification_id, student_id)
       SELECT '${id}', received_at, received_at, received_at, 'Dear Councillor, please build a library.',
              '${randomUUID()}${randomUUID()}', notification_id, '${pupil}'
       FROM submissions WHERE notification_id = ${letter} AND marked_at IS NULL ORDER BY received_at DESC LIMIT 1`,
    )
  }
})

const waiting = (page: Page) => page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem')

/** The pupils' names down the waiting list. */
async function pupilNames(page: Page): Promise<string[]> {
  return (await waiting(page).getByRole('button').allInnerTexts()).map((text) => text.split('\n')[0].trim())
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
}

test('a teacher marks five submissions with the keyboard alone', async ({ page, signIn }) => {
  test.setTimeout(120_000)
  const { mail } = await servers()
  await signIn('teacher')
  await page.goto('/feedback')
  await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
  await expect(waiting(page)).toHaveCount(9)
  await expect(page.getByRole('heading', { level: 2, name: 'Waiting (9)' })).toBeVisible()
  const names = await pupilNames(page)

  // J moves down the list and K back up; the focus follows the chosen submission.
  await page.keyboard.press('j')
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${names[1]}:`) })).toBeVisible()
  await expect(waiting(page).nth(1).getByRole('button')).toBeFocused()
  await page.keyboard.press('k')
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${names[0]}:`) })).toBeVisible()
  await expect(waiting(page).first().getByRole('button')).toBeFocused()
  // The arrow keys move too while the focus is in the list.
  await page.keyboard.press('ArrowDown')
  await expect(waiting(page).nth(1).getByRole('button')).toBeFocused()
  await page.keyboard.press('ArrowUp')
  await expect(waiting(page).first().getByRole('button')).toBeFocused()

  // A comment in the teacher's bank, with the pupil's first name in it.
  const added = await page.request.post('/api/trpc/commentBank.add', {
    data: { json: { text: 'Great persuasive letter, {name}.', sentiment: 'POSITIVE', tags: [], school: false } },
  })
  expect(added.ok(), await added.text()).toBe(true)

  const sentiments = ['2', '3', '1', '2', '2'] as const
  const radio = { '1': 'Neutral', '2': 'Positive', '3': 'Negative' } as const
  const feedbackBox = page.getByLabel('Feedback', { exact: true })
  for (let n = 0; n < 5; n += 1) {
    const heading = page.getByRole('heading', { level: 2, name: new RegExp(`^${names[n]}:`) })
    await expect(heading).toBeVisible()
    if (n > 0) {
      // After a mark the focus is in the next submission's feedback box; Esc goes back to the list.
      await expect(feedbackBox).toBeFocused()
      await page.keyboard.press('Escape')
      await expect(waiting(page).first().getByRole('button')).toBeFocused()
    }
    // Typing a digit in the list chooses the sentiment (it is not typed anywhere).
    await page.keyboard.press(sentiments[n])
    await expect(page.getByRole('radio', { name: radio[sentiments[n]] })).toBeChecked()
    await page.keyboard.press('Enter')
    await expect(feedbackBox).toBeFocused()
    if (n === 0) {
      // Three letters bring up the bank's comment; Enter inserts it with the pupil's name.
      await page.keyboard.type('gre')
      await expect(page.getByRole('option', { name: /Great persuasive letter, \{name\}\./ })).toBeVisible()
      await page.keyboard.press('Enter')
      const forename = names[0].split(' ')[0]
      await expect(feedbackBox).toHaveValue(`Great persuasive letter, ${forename}.`)
      await page.keyboard.type(' ')
    }
    // Letters typed in the box are the teacher's: J and 2 do nothing there.
    await page.keyboard.type(`Keyboard feedback ${n + 1}: just 2 jobs left. Check your full stops.`)
    await expect(heading).toBeVisible()
    await page.keyboard.press('Control+Enter')
    await expect(waiting(page)).toHaveCount(8 - n)
  }
  await expect(page.getByRole('heading', { level: 2, name: 'Waiting (4)' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${names[5]}:`) })).toBeVisible()
  await expect(feedbackBox).toBeFocused()
  // A sentence written three times or more is offered for the bank, once.
  const suggestion = page.getByText(/^Add “Check your full stops\.?” to your comment bank\?$/)
  await expect(suggestion).toBeVisible()
  await page.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(page.getByText('Added to your comment bank.', { exact: true }).first()).toBeVisible()
  await expect(suggestion).toHaveCount(0)

  // Each pupil's feedback e-mail carries what was typed for them.
  const typed = (n: number) => `Keyboard feedback ${n}: just 2 jobs left.`
  const arrived = () =>
    [1, 2, 3, 4, 5].filter((n) => mail.messages.some((m) => m.subject === SUBJECT && m.text.includes(typed(n))))
  await expect.poll(arrived, { timeout: 30_000 }).toEqual([1, 2, 3, 4, 5])
})

test('three submissions get one comment at once, each with their own name', async ({ page, signIn }) => {
  const { mail } = await servers()
  await signIn('teacher')
  await page.goto('/feedback')
  await expect(waiting(page)).toHaveCount(4)
  const names = await pupilNames(page)

  await waiting(page).nth(0).getByRole('checkbox').click()
  await waiting(page).nth(2).getByRole('checkbox').click({ modifiers: ['Shift'] })
  for (const n of [0, 1, 2]) await expect(waiting(page).nth(n).getByRole('checkbox')).toBeChecked()
  await expect(waiting(page).nth(3).getByRole('checkbox')).not.toBeChecked()
  await expect(page.getByRole('heading', { level: 2, name: 'Feedback for 3 pupils' })).toBeVisible()

  // Refused in the browser like a single mark: nothing is sent without feedback.
  await page.getByRole('button', { name: 'Mark 3' }).click()
  await expect(page.getByText('Write your feedback.')).toBeVisible()

  await page.getByLabel('Feedback for each').fill('Well done {name}, a clear and persuasive letter.')
  await page.getByRole('radio', { name: 'Positive' }).check()
  await page.getByRole('button', { name: 'Mark 3' }).click()
  await expect(page.getByText('Feedback saved for 3 pupils.', { exact: true })).toBeVisible()
  await expect(waiting(page)).toHaveCount(1)
  await expect(waiting(page).first()).toContainText(names[3])

  for (const name of names.slice(0, 3)) {
    const forename = name.split(' ')[0]
    await expect
      .poll(
        () =>
          mail.messages.some(
            (m) => m.subject === SUBJECT && m.text.includes(`Well done ${forename}, a clear and persuasive letter.`),
          ),
        { timeout: 30_000 },
      )
      .toBe(true)
  }
  expect(mail.messages.some((m) => m.text.includes('{name}'))).toBe(false)
})

/** A 2 × 2 PNG, a one-page PDF and a tenth of a second of silence as WAV. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
  'base64',
)
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
)
function wav(): Buffer {
  const samples = 1600
  const out = Buffer.alloc(44 + samples * 2)
  out.write('RIFF', 0)
  out.writeUInt32LE(36 + samples * 2, 4)
  out.write('WAVEfmt ', 8)
  out.writeUInt32LE(16, 16)
  out.writeUInt16LE(1, 20)
  out.writeUInt16LE(1, 22)
  out.writeUInt32LE(16000, 24)
  out.writeUInt32LE(32000, 28)
  out.writeUInt16LE(2, 32)
  out.writeUInt16LE(16, 34)
  out.write('data', 36)
  out.writeUInt32LE(samples * 2, 40)
  return out
}

test('the work handed in shows in the Hub: a picture, a PDF and a recording', async ({ page, signIn, request }) => {
  const { server } = await servers()
  const [id, token] = server
    .sql(
      `SELECT s.id || ' ' || s.token FROM submissions s JOIN notifications n ON n.id = s.notification_id
       WHERE n.title = 'Persuasive letter' AND s.received_at IS NOT NULL AND s.marked_at IS NULL`,
    )
    .split(/\s+/)
  for (const [filename, type, body] of [
    ['letter photo.png', 'image/png', PNG],
    ['letter.pdf', 'application/pdf', PDF],
    ['reading.wav', 'audio/wav', wav()],
  ] as const) {
    const answer = await request.post(`${server.baseURL}/api/submissions/${id}/${token}/files`, {
      headers: { 'x-filename': encodeURIComponent(filename), 'content-type': type },
      data: body,
    })
    expect(answer.status(), await answer.text()).toBe(201)
  }

  await signIn('teacher')
  await page.goto('/feedback')
  const files = page.getByRole('list', { name: 'Files handed in' })
  const picture = files.getByRole('img', { name: /^letter photo\.png, handed in by / })
  await expect(picture).toBeVisible()
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2)
  await expect(files.locator('iframe[title="letter.pdf (PDF)"]')).toHaveAttribute('src', /\?inline=1$/)
  const player = files.locator('audio[aria-label="reading.wav"]')
  await expect(player).toBeVisible()
  await expect.poll(() => player.evaluate((audio: HTMLAudioElement) => audio.duration)).toBeCloseTo(0.1, 2)
  for (const name of ['Download letter photo.png', 'Download letter.pdf', 'Download reading.wav'])
    await expect(files.getByRole('link', { name })).toBeVisible()
  // The analyser opens on Review with the pupil's picture, and its answer becomes the feedback.
  await page.getByRole('button', { name: 'Analyse this photo' }).click()
  const analyser = page.getByRole('dialog', { name: 'Analyse photos' })
  await expect(analyser.getByRole('list', { name: 'Photos to analyse' }).getByRole('img')).toHaveCount(1)
  await analyser.getByRole('button', { name: 'Confirm' }).click()
  await analyser.getByRole('button', { name: 'Use as feedback' }).click()
  await expect(analyser).toHaveCount(0)
  await expect(page.getByLabel('Feedback', { exact: true })).toHaveValue(/^Feedback on 1 photo: /)
  // The download link stays a download; the page's own copy is shown in place.
  const pdf = await request.get(`${server.baseURL}/api/submissions/${id}/${token}/files/${
    (await files.getByRole('link', { name: 'Download letter.pdf' }).getAttribute('href'))?.split('/').pop()
  }`)
  expect(pdf.headers()['content-disposition']).toMatch(/^attachment/)
})

test('? lists the keys, and the Hub has no serious violation', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/feedback')
  await expect(waiting(page)).toHaveCount(1)
  expect(await seriousViolations(page)).toEqual([])
  await page.keyboard.press('?')
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('Mark and go to the next submission')
  expect(await seriousViolations(page)).toEqual([])
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click()
  await expect(dialog).toBeVisible()
})

test('held feedback stays in the Hub to edit or withdraw until Release feedback', async ({ page, signIn }) => {
  test.setTimeout(90_000)
  const { mail, server } = await servers()
  server.sql("UPDATE notifications SET feedback_release = 'BY_HAND' WHERE title = 'Persuasive letter'")
  await signIn('teacher')
  await page.goto('/feedback')
  await expect(waiting(page)).toHaveCount(1)
  const [name] = await pupilNames(page)
  const forename = name.split(' ')[0]
  const feedbackTo = () => mail.messages.filter((m) => m.subject === SUBJECT && m.text.includes('Held for now'))

  await page.getByLabel('Feedback', { exact: true }).fill('Held for now, first draft.')
  await page.getByRole('button', { name: 'Mark', exact: true }).click()
  await expect(page.getByText('Nothing is waiting for feedback.')).toBeVisible()
  const marked = page.getByRole('list', { name: 'Marked submissions' }).getByRole('listitem')
  await expect(page.getByRole('heading', { level: 2, name: /^Marked \(\d+\)$/ })).toBeVisible()
  await expect(marked.first()).toContainText(name)
  await expect(marked.first()).toContainText('Held: release by hand')
  const held = page.getByRole('listitem', { name: 'Held feedback: Persuasive letter' })
  await expect(held).toContainText('1 mark held')
  await expect(held.getByRole('button', { name: 'Release feedback (1)' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  // While held it can be changed…
  await marked.first().getByRole('button').click()
  await expect(page.getByRole('heading', { level: 2, name: `${name}: Persuasive letter` })).toBeVisible()
  await page.getByLabel('Feedback', { exact: true }).fill(`Held for now, ${forename}: the final word.`)
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expect(page.getByText('Feedback changed.', { exact: true })).toBeVisible()
  // …or taken back, so the work waits again; marked again, it is held again.
  await page.getByRole('button', { name: 'Withdraw mark' }).click()
  await page.getByRole('dialog', { name: `Withdraw the mark for ${name}?` }).getByRole('button', { name: 'Withdraw mark' }).click()
  await expect(page.getByText('Mark withdrawn. The work waits for feedback again.', { exact: true })).toBeVisible()
  await expect(waiting(page)).toHaveCount(1)
  await expect(page.getByRole('listitem', { name: 'Held feedback: Persuasive letter' })).toHaveCount(0)
  await page.getByLabel('Feedback', { exact: true }).fill(`Held for now, ${forename}: the final word.`)
  await page.keyboard.press('Control+Enter')
  await expect(held.getByRole('button', { name: 'Release feedback (1)' })).toBeVisible()
  expect(feedbackTo()).toEqual([])

  await held.getByRole('button', { name: 'Release feedback (1)' }).click()
  const dialog = page.getByRole('dialog', { name: 'Release feedback?' })
  await dialog.getByRole('button', { name: 'Release feedback (1)' }).click()
  await expect(page.getByText('Feedback released: 1 mark.', { exact: true }).first()).toBeVisible()
  await expect(page.getByRole('listitem', { name: 'Held feedback: Persuasive letter' })).toHaveCount(0)
  await expect(marked.first()).toContainText('Released')
  // Released feedback is read-only, and the pupil's e-mail carries the edited words.
  await marked.first().getByRole('button').click()
  await expect(page.getByText('Pupils and parents have this feedback, so it can no longer be changed.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0)
  await expect.poll(() => feedbackTo().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1)
  expect(feedbackTo().every((m) => m.text.includes(`Held for now, ${forename}: the final word.`))).toBe(true)
})
