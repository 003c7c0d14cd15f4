// The report generator (/leaders/report-generator): the form the tour anchors to, its
// checks, a report streaming in from the stub chat model (real server, real SSE), editing,
// saving, the Word and PDF downloads, and the saved reports list.
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'

/** A task of the caller's, made from the demo's "Lesson observation" template. */
async function newTask(page: Page, title: string) {
  await page.goto('/leaders/tasks/create')
  await page.getByLabel('Title').fill(title)
  await page.getByRole('radio', { name: /Lesson observation/ }).check()
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page).toHaveURL(/\/leaders\/tasks\/[^/]+\/edit$/)
  await page.getByLabel('What went well in the lesson? (required)', { exact: true }).fill('Reading aloud was confident.')
  await page.getByRole('button', { name: 'Save as draft' }).click()
  await expect(page.getByText('Draft saved.', { exact: true })).toBeVisible()
}

test('the form needs a task, then a report streams in, is edited, saved, downloaded and deleted', async ({ page, signIn }) => {
  const title = `Learning walk: Year 7 ${Date.now().toString(36)}`
  await signIn('admin')
  await newTask(page, title)
  await page.goto('/leaders/report-generator')
  await expect(page.getByRole('heading', { level: 1, name: 'Report generator' })).toBeVisible()
  const form = page.locator('[data-tour="report-form"]')
  await expect(form).toBeVisible()

  await form.getByRole('button', { name: 'Generate' }).click()
  await expect(page.getByText('Choose at least one task.')).toBeVisible()

  await page.getByRole('checkbox', { name: new RegExp(title) }).check()
  await page.getByLabel('Instructions', { exact: true }).fill('A summary for governors.')
  await page.getByLabel('Title', { exact: true }).fill('Spring review')
  await form.getByRole('button', { name: 'Generate' }).click()
  // The stub model (stubs/vision-server.mjs) writes a report naming the sources it was given.
  const body = page.getByLabel('Report text')
  await expect(body).toHaveValue(new RegExp(`^# Spring review\\n\\n## Sources\\n\\n- Task: ${title}`), { timeout: 20_000 })
  await expect(body).toHaveValue(/The sources were read by the stub model\.\n$/)

  await body.fill('# Spring review\n\n## Strengths\n\n- Reading improved a lot.\n')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Report saved.').first()).toBeVisible()

  const word = page.getByRole('link', { name: 'Download Word' })
  const pdf = page.getByRole('link', { name: 'Download PDF' })
  const wordFile = await page.request.get((await word.getAttribute('href')) ?? '')
  expect(wordFile.status()).toBe(200)
  expect(wordFile.headers()['content-disposition']).toContain('Spring review.docx')
  const pdfFile = await page.request.get((await pdf.getAttribute('href')) ?? '')
  expect((await pdfFile.body()).subarray(0, 5).toString()).toBe('%PDF-')

  const saved = page.getByRole('list', { name: 'Saved reports' })
  await expect(saved.getByText('Spring review')).toBeVisible()
  await expect(saved.getByText(/Saved \d{2}\/\d{2}\/\d{4}/)).toBeVisible()
  await saved.getByRole('button', { name: 'Delete Spring review' }).click()
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click()
  await expect(page.getByText('No saved reports yet.', { exact: false })).toBeVisible()
})
