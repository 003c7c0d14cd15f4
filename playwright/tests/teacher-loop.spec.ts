// Issue 4's loop as a user does it, against a server of this file's own (fresh demo data,
// e-mail to a real SMTP server on loopback started here): the demo teacher schedules an
// assignment to Year 7 English for pupils and parents a minute or two ahead; the job runs at
// the send date and the e-mails arrive (one per pupil, one per parent whose preferences ask
// for assignment e-mails at once); a pupil opens their link without signing in and hands in
// text and a file; the Feedback Hub badge goes up by one; the teacher marks it POSITIVE; the
// badge goes down, the pupil's page shows the feedback, and the feedback e-mails arrive.
import type { Page } from '@playwright/test'

import { expect, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile, preferencesLinks, submissionLink, type Mail } from '../fixtures/smtp'
import { PASSWORD, USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

const servers = mailServersForFile(test)

/** `datetime-local` text for now + `minutes` (browser and this process share the time zone). */
function localInput(minutes: number): string {
  const d = new Date(Date.now() + minutes * 60_000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** The number the Feedback Hub badge shows (0 when it is not shown). */
async function badgeCount(page: Page): Promise<number> {
  const badge = page.getByTestId('feedback-badge')
  if ((await badge.count()) === 0) return 0
  return Number((await badge.first().textContent())?.match(/\d+/)?.[0] ?? 0)
}

const PUPIL = /^([a-z]+)\.([a-z]+)(\d+)@pupils\.northbridge\.test$/
const PARENT = /^parent\.([a-z]+\.[a-z]+\d+)@families\.test$/
const capital = (s: string) => s[0].toUpperCase() + s.slice(1)

/**
 * Whether the demo parent of the pupil with this address wants assignment e-mails at once.
 * Mirrors server/src/seed.rs: pupil n (its address ends in n + 1) has a parent with the
 * assignment switch off when n % 9 == 0 and DAILY digests when n % 5 == 0.
 */
function parentGetsAssignmentAtOnce(pupilAddress: string): boolean {
  const n = Number(PUPIL.exec(pupilAddress)?.[3]) - 1
  return n % 9 !== 0 && n % 5 !== 0
}

test('a teacher sends an assignment, a pupil hands in from the e-mail, the teacher marks it', async ({ page, browser }) => {
  test.setTimeout(300_000)
  const { mail, server } = await servers()
  const started = Date.now()
  const title = `Book review ${Date.now().toString(36)}`

  await test.step('the teacher signs in and schedules an assignment to Year 7 English', async () => {
    await page.goto('/login')
    await submitLogin(page, USERS.teacher, PASSWORD)
    await expect(page).not.toHaveURL(/\/login/)
    await expect.poll(() => badgeCount(page)).toBe(3)

    await page.goto('/notifications/create?type=ASSIGNMENT')
    await expect(page.getByRole('heading', { level: 1, name: 'New assignment' })).toBeVisible()
    await page.getByLabel('Title', { exact: true }).fill(title)
    await page.getByRole('textbox', { name: 'Message' }).click()
    await page.keyboard.type('Review a book you read this term in about 300 words.')
    // Whole minutes only: two minutes ahead is 60–120 s from now.
    await page.getByLabel('Send date').fill(localInput(2))
    await page.getByLabel('Due date').fill(localInput(7 * 24 * 60))
    await expect(page.getByLabel('Pupils', { exact: true })).toBeChecked()
    await page.getByLabel('Parents', { exact: true }).check()
    await page.getByRole('checkbox', { name: /Year 7 English/ }).check()
    await expect(page.getByText('20 pupils will receive this.')).toBeVisible()
    await page.getByRole('button', { name: 'Send assignment' }).click()
    await expect(page).toHaveURL(/\/notifications\/[^/]+\/details$/)
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()

    await page.getByRole('link', { name: 'Activity' }).click()
    await page.getByLabel('Search by title').fill(title)
    const row = page.getByRole('row', { name: new RegExp(title) })
    await expect(row).toBeVisible()
    await expect(row.getByRole('cell').nth(2)).toHaveText('Scheduled')
    // Nothing goes out before the send date.
    expect(mail.messages.filter((m) => m.subject.includes(title))).toEqual([])
  })

  let assignmentMails: Mail[] = []
  await test.step('at the send date the e-mails reach pupils and the parents who want them now', async () => {
    // Pupils get the assignment (with their hand-in link); parents a message about it.
    const subjects = [`Assignment: ${title}`, title]
    const pupilMails = () => mail.messages.filter((m) => m.subject === subjects[0] && m.to.some((a) => PUPIL.test(a)))
    // Year 7 English: 20 pupils, every one with an address.
    await expect
      .poll(() => pupilMails().length, { timeout: 150_000, intervals: [500, 1_000] })
      .toBe(20)
    const pupils = pupilMails().flatMap((m) => m.to).sort()
    const expectedParents = pupils
      .filter(parentGetsAssignmentAtOnce)
      .map((a) => `parent.${a.replace('@pupils.northbridge.test', '')}@families.test`)
      .sort()
    expect(expectedParents).toHaveLength(14)
    const parentMails = () => mail.messages.filter((m) => m.subject === subjects[1] && m.to.some((a) => PARENT.test(a)))
    await expect.poll(() => parentMails().length, { timeout: 30_000, intervals: [250] }).toBe(expectedParents.length)
    // A moment more: nothing else arrives (parents with the switch off or a DAILY digest).
    await page.waitForTimeout(1_000)
    assignmentMails = mail.messages.filter((m) => subjects.includes(m.subject))
    expect(assignmentMails).toHaveLength(20 + expectedParents.length)
    expect(parentMails().flatMap((m) => m.to).sort()).toEqual(expectedParents)
    const notNow = pupils.filter((a) => !parentGetsAssignmentAtOnce(a))
    expect(notNow).toHaveLength(6)
    for (const address of notNow) {
      const parent = `parent.${address.replace('@pupils.northbridge.test', '')}@families.test`
      expect(assignmentMails.flatMap((m) => m.to)).not.toContain(parent)
    }
    for (const m of assignmentMails) {
      expect(m.to).toHaveLength(1)
      expect(m.messageId).toMatch(/^<[^@>]+@voicemark>$/)
      expect(preferencesLinks(m).length, `preferences link in the mail to ${m.to[0]}`).toBeGreaterThan(0)
      for (const link of preferencesLinks(m)) expect(link.startsWith(`${server.baseURL}/preferences/`)).toBe(true)
      // Pupils get their own hand-in link; parents do not.
      if (PUPIL.test(m.to[0])) expect(submissionLink(m)?.startsWith(`${server.baseURL}/submissions/`)).toBe(true)
      else expect(submissionLink(m)).toBeUndefined()
    }
    expect(new Set(assignmentMails.map((m) => m.messageId)).size).toBe(assignmentMails.length)
    expect(new Set(assignmentMails.map((m) => submissionLink(m)).filter(Boolean)).size).toBe(20)
  })

  // A pupil whose parent also had the assignment e-mail, so both get the feedback.
  const pupilMail = assignmentMails.find((m) => PUPIL.test(m.to[0]) && parentGetsAssignmentAtOnce(m.to[0]))!
  const pupilAddress = pupilMail.to[0]
  const parentAddress = `parent.${pupilAddress.replace('@pupils.northbridge.test', '')}@families.test`
  const [, forename, surname] = PUPIL.exec(pupilAddress)!
  const pupilName = `${capital(forename)} ${capital(surname)}`
  const link = submissionLink(pupilMail)!
  const pupilContext = await browser.newContext()
  const pupilPage = await pupilContext.newPage()

  await test.step('the pupil opens the link without signing in and hands in text and a file', async () => {
    await pupilPage.goto(link)
    await expect(pupilPage.getByRole('heading', { level: 1, name: title })).toBeVisible()
    await expect(pupilPage.getByText(`Hello ${capital(forename)},`)).toBeVisible()
    await pupilPage.getByLabel('Your answer').fill('I read Holes by Louis Sachar. It is funny and clever.')
    await pupilPage.getByLabel('Add files').setInputFiles({
      name: 'review-notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('Notes for my review of Holes.\n'),
    })
    await expect(pupilPage.getByRole('list', { name: 'Your files' })).toContainText('review-notes.txt')
    await pupilPage.getByRole('button', { name: 'Hand in' }).click()
    await expect(pupilPage.getByText('Your work has been handed in.').first()).toBeVisible()
    await expect(pupilPage.getByText(/Handed in on/)).toBeVisible()
  })

  const feedback = `Thoughtful review, ${forename}: well chosen quotations.`
  await test.step('the badge shows one more; the teacher marks the work POSITIVE; the badge goes down', async () => {
    await page.reload()
    await expect.poll(() => badgeCount(page)).toBe(4)
    await page.goto('/feedback')
    await expect(page.getByRole('heading', { level: 1, name: 'Feedback Hub' })).toBeVisible()
    const items = page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem')
    await expect(items).toHaveCount(4)
    const item = items.filter({ hasText: pupilName }).filter({ hasText: title })
    await item.getByRole('button').click()
    await expect(page.getByRole('heading', { level: 2, name: `${pupilName}: ${title}` })).toBeVisible()
    await page.getByLabel('Feedback', { exact: true }).fill(feedback)
    await page.getByRole('radio', { name: 'Positive' }).check()
    await page.getByRole('button', { name: 'Mark', exact: true }).click()
    await expect(page.getByText('Feedback saved.', { exact: true })).toBeVisible()
    await expect(items).toHaveCount(3)
    await expect.poll(() => badgeCount(page)).toBe(3)
  })

  await test.step("the pupil's link shows the feedback, and the feedback e-mails arrive", async () => {
    await pupilPage.reload()
    const section = pupilPage.getByRole('region', { name: 'Feedback' })
    await expect(section).toContainText('Positive')
    await expect(section).toContainText(feedback)
    await expect(pupilPage.getByRole('button', { name: /Hand in/ })).toHaveCount(0)
    await pupilContext.close()

    const subject = `Feedback on ${title}`
    const feedbackMails = () => mail.messages.filter((m) => m.subject === subject)
    await expect
      .poll(() => feedbackMails().flatMap((m) => m.to).sort(), { timeout: 30_000, intervals: [250] })
      .toEqual([parentAddress, pupilAddress].sort())
    for (const m of feedbackMails()) {
      expect(m.text).toContain(feedback)
      expect(m.text).toContain('Positive')
      expect(m.messageId).toMatch(/^<[^@>]+@voicemark>$/)
      expect(preferencesLinks(m).length, `preferences link in the feedback to ${m.to[0]}`).toBeGreaterThan(0)
    }
    const toPupil = feedbackMails().find((m) => m.to[0] === pupilAddress)!
    expect(submissionLink(toPupil)).toBe(link)
  })
  console.log(`teacher loop: ${((Date.now() - started) / 1000).toFixed(1)} s`)
})
