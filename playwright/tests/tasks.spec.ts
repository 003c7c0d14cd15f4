// Tasks (issue 11): the list, step 1 (title and template), the task page with its questions,
// Save as draft keeping the text, Submit once the required questions are answered, and the
// Collaborate panel (Basic: the upgrade prompt; superadmin counts as Pro). Needs at least one
// template the user can see (the templates part or the demo seed makes them): skipped
// otherwise.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'

/** The templates the signed-in user may start a task from (`task.templateChoices`). */
async function templateChoices(page: Page): Promise<{ id: string; title: string; questionCount: number }[]> {
  const response = await page.request.get('/api/trpc/task.templateChoices')
  expect(response.ok()).toBe(true)
  const body = (await response.json()) as { result: { data: { json: { id: string; title: string; questionCount: number }[] } } }
  return body.result.data.json
}

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((n) => n.target) }))
}

test('a teacher starts a task from a template, saves a draft and submits it', async ({ page, signIn }) => {
  await signIn('teacher')
  const templates = await templateChoices(page)
  // The demo seeds two templates of Northbridge's (voicemark seed --demo).
  expect(templates.length).toBeGreaterThan(0)
  const template = templates.find((t) => t.questionCount > 0) ?? templates[0]

  await page.goto('/leaders/tasks')
  await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible()
  await expect(page.getByLabel('Search tasks')).toBeVisible()
  await page.locator('[data-tour="new-task"]').click()

  await expect(page.getByRole('heading', { level: 1, name: 'New task' })).toBeVisible()
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(page.getByText('Enter a title.')).toBeVisible()
  const title = `Observation ${Date.now()}`
  await page.getByLabel('Title').fill(title)
  await page.getByRole('radio', { name: new RegExp(template.title) }).check()
  await page.getByRole('button', { name: 'Create' }).click()

  await expect(page).toHaveURL(/\/leaders\/tasks\/[^/]+\/edit$/)
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Content', exact: true })).toBeVisible()
  await page.getByLabel('Tags').fill('English, Year 7')

  const questions = page.getByRole('region', { name: 'Questions' }).getByRole('textbox')
  const count = await questions.count()
  for (let i = 0; i < count; i += 1) await questions.nth(i).fill(`Answer ${i + 1}`)
  await page.locator('[data-tour="save-task"]').click()
  await expect(page.getByText('Draft saved.', { exact: true })).toBeVisible()
  if (count > 0) await expect(questions.first()).toHaveValue('Answer 1')

  // Basic: a teacher cannot pay, so the Collaborate panel says who can upgrade (spec section 6).
  const collaborate = page.getByRole('region', { name: 'Collaborate' })
  await expect(collaborate.getByText('Your school’s admins can upgrade your school to Pro.', { exact: false })).toBeVisible()
  await expect(collaborate.getByRole('button', { name: 'Upgrade to Pro' })).toHaveCount(0)
  await expect(collaborate.getByRole('link', { name: /^Ask / }).first()).toHaveAttribute('href', /^mailto:/)

  expect(await seriousViolations(page)).toEqual([])

  await page.getByRole('button', { name: 'Submit' }).click()
  await expect(page.getByText('Task submitted.', { exact: true })).toBeVisible()

  await page.goto('/leaders/tasks')
  await page.getByLabel('Search tasks').fill(title)
  const row = page.getByRole('row').filter({ hasText: title })
  await expect(row).toContainText('Submitted')
  await expect(row).toContainText(template.title)
  await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4}/)
  await page.getByLabel('Status').selectOption('DRAFT')
  await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(0)
})

test('a task of nobody is not found', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/leaders/tasks/no-such-task/edit')
  await expect(page.getByText('This task does not exist or is not shared with you.')).toBeVisible()
})
