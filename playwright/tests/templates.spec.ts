// Templates (issue 11 item 1): an admin creates a template with three questions, reorders
// them with the keyboard, finds it in the list and views it; a teacher has no access; the
// pages have no serious or critical axe violation.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((n) => n.target) }))
}

test('an admin creates a template, reorders its questions with the keyboard and views it', async ({ page, signIn }) => {
  const title = `Lesson review ${Date.now()}`
  await signIn('admin')
  await page.goto('/leaders/templates')
  await expect(page.getByRole('heading', { level: 1, name: 'Templates' })).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])

  await page.getByRole('link', { name: 'Create template' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Create template' })).toBeVisible()
  await page.getByLabel('Title').fill(title)
  await page.getByLabel('Tags').fill('Year 7, Review')
  await page.getByRole('radio', { name: /^School/ }).check()
  await page.getByLabel('Question 1', { exact: true }).fill('First question')
  await page.getByRole('button', { name: 'Add question' }).click()
  await page.getByLabel('Question 2', { exact: true }).fill('Second question')
  await page.getByRole('button', { name: 'Add question' }).click()
  await page.getByLabel('Question 3', { exact: true }).fill('Third question')
  await page.getByRole('checkbox', { name: 'Question 3 required' }).check()
  expect(await seriousViolations(page)).toEqual([])

  // Keyboard: move question 3 up twice; the focus follows the moved question.
  await page.getByRole('button', { name: 'Move question 3 up' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: 'Move question 2 up' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByLabel('Question 1', { exact: true })).toHaveValue('Third question')
  await expect(page.getByLabel('Question 2', { exact: true })).toHaveValue('First question')
  await expect(page.getByLabel('Question 3', { exact: true })).toHaveValue('Second question')
  await expect(page.getByRole('checkbox', { name: 'Question 1 required' })).toBeChecked()

  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  const questions = page.getByRole('region', { name: 'Questions' }).getByRole('listitem')
  await expect(questions).toHaveText([/Third question\s*Required/, 'First question', 'Second question'])
  expect(await seriousViolations(page)).toEqual([])

  await page.goto('/leaders/templates')
  await page.getByLabel('Search templates').fill(title)
  const row = page.getByRole('row', { name: new RegExp(title) })
  await expect(row).toBeVisible()
  await expect(row.getByRole('cell', { name: 'School' })).toBeVisible()
  await expect(row.getByRole('cell', { name: '3', exact: true })).toBeVisible()
  await expect(row.getByText(/^\d{2}\/\d{2}\/\d{4}$/)).toBeVisible()
  await row.getByRole('link', { name: `View ${title}` }).click()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
})

test('a teacher has no access to the templates pages', async ({ page, signIn }) => {
  await signIn('teacher')
  for (const path of ['/leaders/templates', '/leaders/templates/create']) {
    await page.goto(path)
    await expect(page.getByText('You do not have access to this page.')).toBeVisible()
  }
})
