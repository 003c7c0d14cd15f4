// The Comment bank page (/feedback/comment-bank): a teacher adds, searches, edits and deletes
// comments, exports them as CSV (the download holds the rows) and imports a CSV file (a bad
// file lists its problems and adds nothing; a clean one adds its rows); a proposal reaches
// the school's bank once the admin approves it. axe on the page, at 360 px too.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, signIn, test } from '../fixtures/auth'

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include('main').analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
}

async function addComment(page: Page, text: string, sentiment: 'Neutral' | 'Positive' | 'Negative', tags = '') {
  await page.getByRole('button', { name: 'Add comment' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add comment' })
  await dialog.getByLabel('Comment').fill(text)
  await dialog.getByLabel(sentiment).check()
  if (tags) await dialog.getByLabel('Tags').fill(tags)
  await dialog.getByRole('button', { name: 'Save comment' }).click()
  await expect(dialog).toBeHidden()
}

const comments = (page: Page) => page.getByRole('list', { name: 'Comments' })

test('a teacher adds, searches, edits, deletes, exports and imports comments', async ({ page }) => {
  test.setTimeout(60_000)
  const run = Date.now().toString(36)
  // This test's own comments: the other test adds to the same teacher's bank meanwhile.
  const mine = () => comments(page).getByRole('listitem').filter({ hasText: run })
  await signIn(page, 'teacher')
  await page.goto('/feedback/comment-bank')
  await expect(page.getByRole('heading', { level: 1, name: 'Comment bank' })).toBeVisible()
  await expect(page.getByRole('tab', { name: 'Mine' })).toHaveAttribute('aria-selected', 'true')
  await expect(page.getByRole('tab', { name: 'Proposed' })).toHaveCount(0)

  // An empty comment is refused on the form.
  await page.getByRole('button', { name: 'Add comment' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add comment' })
  await dialog.getByRole('button', { name: 'Save comment' }).click()
  await expect(dialog.getByText('Write the comment.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()

  await addComment(page, `Great use of evidence, {name} ${run}.`, 'Positive', 'English; Year 7')
  await addComment(page, `Check your spelling of key words ${run}.`, 'Negative')
  await expect(mine()).toHaveCount(2)
  const first = mine().filter({ hasText: `Great use of evidence, {name} ${run}.` })
  await expect(first.getByText('Positive')).toBeVisible()
  await expect(first.getByText('Year 7')).toBeVisible()
  await expect(first.getByText('Used 0 times')).toBeVisible()

  // The same comment twice is refused with a sentence under the field.
  await page.getByRole('button', { name: 'Add comment' }).click()
  await dialog.getByLabel('Comment').fill(`great use of EVIDENCE {name} ${run}`)
  await dialog.getByRole('button', { name: 'Save comment' }).click()
  await expect(dialog.getByText('This comment is already in your comment bank.')).toBeVisible()
  await dialog.getByRole('button', { name: 'Cancel' }).click()

  // Search.
  await page.getByLabel('Search comments').fill('spelling')
  await expect(mine()).toHaveCount(1)
  await expect(comments(page)).toContainText(`Check your spelling of key words ${run}.`)
  await page.getByLabel('Search comments').fill('nothing like this')
  await expect(page.getByText('No comments match')).toBeVisible()
  await page.getByLabel('Search comments').fill('')
  await expect(mine()).toHaveCount(2)

  // Edit.
  await comments(page).getByRole('button', { name: `Edit Check your spelling` }).click()
  const edit = page.getByRole('dialog', { name: 'Edit comment' })
  await expect(edit.getByLabel('Comment')).toHaveValue(`Check your spelling of key words ${run}.`)
  await edit.getByLabel('Comment').fill(`Check the spelling of subject words ${run}.`)
  await edit.getByRole('button', { name: 'Save comment' }).click()
  await expect(edit).toBeHidden()
  await expect(comments(page)).toContainText(`Check the spelling of subject words ${run}.`)
  await expect(comments(page)).not.toContainText(`Check your spelling of key words ${run}.`)

  // Export: the download holds the rows.
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Export CSV' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('comment-bank.csv')
  const csv = Buffer.concat((await (await file.createReadStream()).toArray()) as Buffer[]).toString('utf8')
  expect(csv.split('\n')[0]).toBe('text,sentiment,tags')
  expect(csv).toContain(`"Great use of evidence, {name} ${run}.",POSITIVE,English; Year 7`)
  expect(csv).toContain(`Check the spelling of subject words ${run}.,NEGATIVE,`)

  // Import: a bad file adds nothing and says why, line by line.
  const picker = page.getByLabel('Import CSV')
  await picker.setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`text,sentiment\nFine comment ${run},NEUTRAL\n,POSITIVE\nOdd one ${run},HAPPY\n`),
  })
  await expect(page.getByText('bad.csv was not imported. Nothing was added:')).toBeVisible()
  await expect(page.getByText('Line 3: the text is empty.')).toBeVisible()
  await expect(page.getByText('Line 4: the sentiment "HAPPY" is not NEUTRAL, POSITIVE or NEGATIVE.')).toBeVisible()
  await expect(mine()).toHaveCount(2)
  await picker.setInputFiles({
    name: 'good.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`text,sentiment,tags\nA strong ending ${run}.,POSITIVE,English\n"Paragraphs, please ${run}.",,\n`),
  })
  await expect(page.getByText('Imported 2 comments.').first()).toBeVisible()
  await expect(mine()).toHaveCount(4)
  await expect(comments(page)).toContainText(`Paragraphs, please ${run}.`)

  // Sort by newest puts the imported ones first.
  await page.getByLabel('Sort by').selectOption('NEWEST')
  await expect(mine().nth(3)).toContainText(`Great use of evidence`)

  // Delete after confirming.
  await comments(page).getByRole('button', { name: 'Delete A strong ending' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete comment?' })
  await confirm.getByRole('button', { name: 'Delete' }).click()
  await expect(confirm).toBeHidden()
  await expect(mine()).toHaveCount(3)
  await expect(comments(page)).not.toContainText(`A strong ending ${run}.`)

  expect(await seriousViolations(page)).toEqual([])

  // At 360 px nothing runs off the side.
  await page.setViewportSize({ width: 360, height: 800 })
  await expect(mine().first()).toBeVisible()
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  expect(await seriousViolations(page)).toEqual([])
})

test("a teacher's proposal joins the school's bank once an admin approves it", async ({ page, browser }) => {
  test.setTimeout(60_000)
  const run = Date.now().toString(36)
  const teacher = page
  await signIn(teacher, 'teacher')
  await teacher.goto('/feedback/comment-bank')
  await addComment(teacher, `Shared wisdom for all ${run}.`, 'Neutral')
  await comments(teacher).getByRole('button', { name: `Propose to school Shared wisdom` }).click()
  await expect(teacher.getByText('Proposed to your school. An administrator will review it.').first()).toBeVisible()

  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await signIn(admin, 'admin')
  await admin.goto('/feedback/comment-bank')
  await admin.getByRole('tab', { name: /^Proposed/ }).click()
  const proposal = comments(admin).getByRole('listitem').filter({ hasText: `Shared wisdom for all ${run}.` })
  await expect(proposal.getByText(/proposed by/)).toBeVisible()
  expect(await seriousViolations(admin)).toEqual([])
  await proposal.getByRole('button', { name: /^Approve/ }).click()
  await expect(admin.getByText('Comment approved.').first()).toBeVisible()

  await teacher.getByRole('tab', { name: 'School' }).click()
  await expect(comments(teacher)).toContainText(`Shared wisdom for all ${run}.`)
  // A teacher may not change the school's comments.
  await expect(comments(teacher).getByRole('button', { name: /^Edit/ })).toHaveCount(0)
  await adminContext.close()
})
