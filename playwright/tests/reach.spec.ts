// Reach (issue 29, docs/reach.md), against a server of this file's own: the teacher sends a
// message to Year 7 English, pupils and parents, where one parent has no address and one
// parent's address bounces (a signed SendGrid event, docs/bounces.md); a parent follows the
// signed link in their e-mail and reads the message; the Reach tab shows each state with
// its count, 'Not reached' lists the two parents, and the paper list downloads as a PDF
// naming them. axe on the Reach tab and the message page; nothing scrolls sideways at 360 px.
import crypto from 'node:crypto'
import fs from 'node:fs'

import AxeBuilder from '@axe-core/playwright'

import { expect, submitLogin, test } from '../fixtures/auth'
import { mailServersForFile } from '../fixtures/smtp'
import { PASSWORD, USERS } from '../fixtures/users'

test.describe.configure({ mode: 'serial' })

// The key SendGrid would sign its events with; the server knows the public half.
const sendgrid = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
const servers = mailServersForFile(test, {
  VOICEMARK_SENDGRID_WEBHOOK_PUBLIC_KEY: sendgrid.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
})

const PARENT = /@families\.test$/

async function seriousViolations(page: import('@playwright/test').Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
}

test('the Reach tab shows who a message reached and prints who it did not', async ({ page, browser }) => {
  test.setTimeout(240_000)
  const { mail, server } = await servers()
  // One Year 7 English pupil's parent has no address.
  const noAddress = server.sql(
    `SELECT s.forename || ' ' || s.surname FROM students s JOIN class_students cs ON cs.student_id = s.id
     JOIN classes c ON c.id = cs.class_id WHERE c.name = 'Year 7 English' ORDER BY s.surname, s.forename LIMIT 1`,
  )
  expect(noAddress).toMatch(/^\w+ \w+$/)
  server.sql(
    `UPDATE students SET parent_email = NULL WHERE id = (SELECT s.id FROM students s JOIN class_students cs ON cs.student_id = s.id
     JOIN classes c ON c.id = cs.class_id WHERE c.name = 'Year 7 English' ORDER BY s.surname, s.forename LIMIT 1)`,
  )

  const title = `Coach times ${Date.now().toString(36)}`
  await page.goto('/login')
  await submitLogin(page, USERS.teacher, PASSWORD)
  await expect(page).not.toHaveURL(/\/login/)
  await page.goto('/notifications/create?type=GENERAL')
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.type('The coach leaves at nine.')
  await page.getByRole('checkbox', { name: /Year 7 English/ }).check()
  await page.getByRole('button', { name: 'Send message' }).click()
  await expect(page).toHaveURL(/\/notifications\/[^/]+\/details$/)
  const notificationId = /\/notifications\/([^/]+)\/details$/.exec(page.url())![1]

  // A parent follows "Read this message online".
  const parentMails = () => mail.messages.filter((m) => m.subject.includes(title) && PARENT.test(m.to[0]))
  // Two: one opens the link, the other's address bounces.
  await expect.poll(() => parentMails().length, { timeout: 60_000, intervals: [500] }).toBeGreaterThan(1)
  const link = /https?:\/\/[^\s"'<>]+\/api\/reach\/open\/[\w~-]+/.exec(parentMails()[0].text)?.[0]
  expect(link, parentMails()[0].text).toBeTruthy()
  // Another parent's address bounces: SendGrid posts a signed event.
  const bounced = parentMails()[1]
  expect(bounced, 'two parents got the message').toBeTruthy()
  const bouncedPupil = /sent you a message about (\w+ \w+)/.exec(bounced.text)?.[1]
  expect(bouncedPupil, bounced.text).toBeTruthy()
  const events = JSON.stringify([
    { email: bounced.to[0], event: 'bounce', type: 'bounce', reason: '550 5.1.1 User unknown', timestamp: Math.floor(Date.now() / 1000) },
  ])
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = crypto.sign('sha256', Buffer.from(timestamp + events), sendgrid.privateKey).toString('base64')
  const posted = await page.request.post('/api/webhooks/sendgrid', {
    headers: {
      'content-type': 'application/json',
      'x-twilio-email-event-webhook-signature': signature,
      'x-twilio-email-event-webhook-timestamp': timestamp,
    },
    data: events,
  })
  expect(posted.status(), await posted.text()).toBeLessThan(300)

  const parentContext = await browser.newContext()
  const parent = await parentContext.newPage()
  await parent.goto(new URL(new URL(link!).pathname, server.baseURL).toString())
  await expect(parent).toHaveURL(/\/messages\//)
  await expect(parent.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expect(parent.getByText('The coach leaves at nine.')).toBeVisible()
  await expect(parent.getByText(/Northbridge Academy sent a message about \w+ \w+/)).toBeVisible()
  expect(await seriousViolations(parent)).toEqual([])
  // A link with a signature that does not hold opens nothing.
  await parent.goto(new URL(`${new URL(link!).pathname}x`, server.baseURL).toString())
  await expect(parent.getByRole('heading', { level: 1, name: 'Link not valid' })).toBeVisible()
  await parentContext.close()

  // The Reach tab: a count per state, the parent opened, the parent without an address.
  await page.getByRole('link', { name: 'Reach' }).click()
  await expect(page).toHaveURL(new RegExp(`/notifications/${notificationId}/reach$`))
  const show = page.getByRole('group', { name: 'Show' })
  await expect(show.getByRole('button', { name: 'Opened (1)' })).toBeVisible()
  await expect(show.getByRole('button', { name: /^Not sent \([1-9]\d*\)$/ })).toBeVisible()
  await expect(show.getByRole('button', { name: /^Sent \([1-9]\d*\)$/ })).toBeVisible()
  await expect(show.getByRole('button', { name: 'Bounced (1)' })).toBeVisible()
  for (const state of ['Waiting', 'Handed in']) {
    await expect(show.getByRole('button', { name: new RegExp(`^${state} \\(\\d+\\)$`) })).toBeVisible()
  }
  await show.getByRole('button', { name: /^Opened/ }).click()
  const table = page.getByRole('region', { name: /^Reach/ })
  await expect(table.getByRole('row')).toHaveCount(2) // the header and the parent
  await expect(table).toContainText('Parent')
  await show.getByRole('button', { name: /^Not reached/ }).click()
  const row = table.getByRole('row').filter({ hasText: noAddress })
  await expect(row).toContainText('No e-mail address')
  await expect(row).toContainText('Parent')
  const bouncedRow = table.getByRole('row').filter({ hasText: bouncedPupil! })
  await expect(bouncedRow).toContainText('Bounced: 550 5.1.1 User unknown')
  expect(await seriousViolations(page)).toEqual([])

  // The paper list names them.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Print paper list (PDF)' }).click(),
  ])
  expect(download.suggestedFilename()).toBe(`Not reached - ${title}.pdf`)
  const pdf = fs.readFileSync((await download.path())!)
  expect(pdf.subarray(0, 4).toString()).toBe('%PDF')
  // Each word is drawn as its own `(…) Tj`.
  const drawn = [...pdf.toString('latin1').matchAll(/Td \((.*?)\) Tj/g)].map((m) => m[1]).join(' ')
  expect(drawn).toContain(`${noAddress} \\(`)
  expect(drawn).toContain('No e-mail address.')
  expect(drawn).toContain(`${bouncedPupil} \\(`)
  expect(drawn).toContain('Bounced: 550 5.1.1 User unknown.')
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()])
  const text = fs.readFileSync((await csv.path())!, 'utf8')
  expect(text.split('\n')[0]).toBe('Pupil,Form group,Who,Address,Reason')
  expect(text).toContain(`${noAddress},`)
  expect(text).toContain('No e-mail address')

  // At 360 px nothing scrolls sideways.
  await page.setViewportSize({ width: 360, height: 740 })
  await expect(show).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
})

test('an admin may count opens by an invisible image, and it is off until they do', async ({ page, browser }) => {
  test.setTimeout(180_000)
  const { mail, server } = await servers()
  await page.goto('/login')
  await submitLogin(page, USERS.admin, PASSWORD)
  await expect(page).not.toHaveURL(/\/login/)
  await page.goto('/admin/settings')
  const pixel = page.getByRole('checkbox', { name: 'Also count e-mails as opened when their images load' })
  await expect(pixel).not.toBeChecked()
  await expect(page.getByText(/many mail apps block it/)).toBeVisible()
  await pixel.check()
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved.', { exact: true })).toBeVisible()
  await page.reload()
  await expect(pixel).toBeChecked()
  expect(await seriousViolations(page)).toEqual([])

  // The next message's parent e-mails carry the image; loading one counts that parent Opened.
  const title = `Trip money ${Date.now().toString(36)}`
  await page.goto('/notifications/create?type=GENERAL')
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByRole('textbox', { name: 'Message' }).click()
  await page.keyboard.type('Please bring five pounds.')
  await page.getByRole('checkbox', { name: /Year 7 English/ }).check()
  await page.getByRole('button', { name: 'Send message' }).click()
  await expect(page).toHaveURL(/\/notifications\/[^/]+\/details$/)
  const parentMails = () => mail.messages.filter((m) => m.subject.includes(title) && PARENT.test(m.to[0]))
  await expect.poll(() => parentMails().length, { timeout: 60_000, intervals: [500] }).toBeGreaterThan(0)
  const image = /https?:\/\/[^\s"'<>]+\/api\/reach\/seen\/[\w~-]+/.exec(parentMails()[0].html)?.[0]
  expect(image, parentMails()[0].html).toBeTruthy()
  const mailApp = await browser.newContext()
  const loaded = await mailApp.request.get(new URL(new URL(image!).pathname, server.baseURL).toString())
  expect(loaded.headers()['content-type']).toBe('image/gif')
  await mailApp.close()
  await page.getByRole('link', { name: 'Reach' }).click()
  await expect(page.getByRole('group', { name: 'Show' }).getByRole('button', { name: 'Opened (1)' })).toBeVisible()
})
