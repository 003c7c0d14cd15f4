// Feedback released by hand (issue 28, item 2), against a server of this file's own (its
// assignment does not count against the demo teacher's weekly limit on the shared one):
// the teacher sets 'Feedback release' to 'By hand' in the editor; three pupils hand in from
// their e-mailed links; the teacher marks them; the pupil's page shows no feedback and no
// feedback e-mail arrives; the notification page shows "Held: release by hand" and
// 'Release feedback (3)'; releasing shows the feedback on the pupil's page and sends three
// feedback e-mails. axe on the release controls.
import AxeBuilder from '@axe-core/playwright'

import { expect, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile, submissionLink } from '../fixtures/smtp'
import { PASSWORD, USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

const servers = mailServersForFile(test)

/** `datetime-local` text for now + `minutes`. */
function localInput(minutes: number): string {
  const d = new Date(Date.now() + minutes * 60_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

const PUPIL = /@pupils\.northbridge\.test$/

test('an assignment released by hand keeps feedback from pupils until Release feedback', async ({ page, browser }) => {
  test.setTimeout(240_000)
  const { mail } = await servers()
  const title = `Held review ${Date.now().toString(36)}`
  const feedbackSubject = `Feedback on ${title}`

  await page.goto('/login')
  await submitLogin(page, USERS.teacher, PASSWORD)
  await expect(page).not.toHaveURL(/\/login/)

  await page.goto('/notifications/create?type=ASSIGNMENT')
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.type('Review a poem in 100 words.')
  await page.getByLabel('Due date').fill(localInput(7 * 24 * 60))
  await page.getByLabel('Parents', { exact: true }).uncheck()
  await page.getByRole('checkbox', { name: /Year 7 English/ }).check()
  const release = page.getByRole('group', { name: 'Feedback release' })
  await expect(release.getByLabel('When marked')).toBeChecked()
  // On a date asks for the date; By hand does not.
  await release.getByLabel('On a date').check()
  await expect(page.getByLabel('Release date')).toBeVisible()
  await release.getByLabel('By hand').check()
  await expect(page.getByLabel('Release date')).toHaveCount(0)
  await page.getByRole('button', { name: 'Send assignment' }).click()
  await expect(page).toHaveURL(/\/notifications\/[^/]+\/details$/)
  const notificationId = /\/notifications\/([^/]+)\/details$/.exec(page.url())![1]
  await expect(page.getByRole('definition').filter({ hasText: /^By hand$/ })).toBeVisible()

  // The assignment reaches the 20 pupils; three hand in through their links.
  const assignmentMails = () => mail.messages.filter((m) => m.subject === `Assignment: ${title}` && PUPIL.test(m.to[0]))
  await expect.poll(() => assignmentMails().length, { timeout: 60_000, intervals: [500] }).toBe(20)
  const links = assignmentMails()
    .slice(0, 3)
    .map((m) => submissionLink(m)!)
  const parts = links.map((link) => /\/submissions\/([\w-]+)\/([\w-]+)/.exec(link)!)
  for (const [, id, token] of parts) {
    const handIn = await page.request.post('/api/trpc/submission.submit', { data: { json: { id, token, content: 'My review of the poem.' } } })
    expect(handIn.status(), await handIn.text()).toBe(200)
  }

  // The teacher marks the three (through the API, as the Hub's form does).
  for (const [, id] of parts) {
    const marked = await page.request.post('/api/trpc/feedback.mark', {
      data: { json: { submissionId: id, feedback: `Held feedback ${id.slice(-4)}: vivid images.`, sentiment: 'POSITIVE' } },
    })
    expect(marked.status(), await marked.text()).toBe(200)
    const body = (await marked.json()) as { result: { data: { json: { releasedAt: unknown } } } }
    expect(body.result.data.json.releasedAt).toBeNull()
  }

  // The pupil's page shows no feedback, and no feedback e-mail arrives.
  const pupilContext = await browser.newContext()
  const pupil = await pupilContext.newPage()
  await pupil.goto(links[0])
  await expect(pupil.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expect(pupil.getByText('Your teacher has your work. Their feedback will appear here.')).toBeVisible()
  await expect(pupil.getByRole('region', { name: 'Feedback' })).toHaveCount(0)
  await expect(pupil.getByText(/vivid images/)).toHaveCount(0)
  await page.waitForTimeout(3_000)
  expect(mail.messages.filter((m) => m.subject === feedbackSubject)).toEqual([])

  // Activity: the notification page holds the three.
  await page.goto(`/notifications/${notificationId}/details`)
  const section = page.getByRole('region', { name: 'Feedback release' })
  await expect(section.getByText('Held: release by hand')).toBeVisible()
  await expect(section.getByText('3 marks held')).toBeVisible()
  const button = section.getByRole('button', { name: 'Release feedback (3)' })
  await expect(button).toBeVisible()
  expect(
    (await new AxeBuilder({ page }).include('section[aria-labelledby="held-heading"]').analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    ),
  ).toEqual([])
  // At 360 px nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 800 })
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  await button.scrollIntoViewIfNeeded()
  await expect(button).toBeInViewport()

  // Release: asked first, then done; the count goes.
  await button.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Release feedback?' })
  await expect(dialog).toBeVisible()
  expect(
    (await new AxeBuilder({ page }).include('[role="dialog"]').analyze()).violations.filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    ),
  ).toEqual([])
  await dialog.getByRole('button', { name: 'Release feedback (3)' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Feedback released: 3 marks.' }).first()).toBeVisible()
  await expect(page.getByText('3 marks held')).toHaveCount(0)

  // The pupil now sees it, and three feedback e-mails arrive (one per pupil).
  await pupil.reload()
  const feedback = pupil.getByRole('region', { name: 'Feedback' })
  await expect(feedback).toContainText('vivid images')
  await expect(feedback).toContainText('Positive')
  await expect
    .poll(() => mail.messages.filter((m) => m.subject === feedbackSubject).length, { timeout: 30_000, intervals: [250] })
    .toBe(3)
  const to = mail.messages.filter((m) => m.subject === feedbackSubject).flatMap((m) => m.to)
  expect(new Set(to).size).toBe(3)
  await pupilContext.close()
})
