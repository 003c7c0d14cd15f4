// The public submission page without sign-in: a wrong or garbled link shows a clear page,
// never a server error. (Opening a real link, handing in and uploading are covered by the
// server's tests, which know the tokens; the demo never prints one.)
import AxeBuilder from '@axe-core/playwright'

import { expect, test } from '../fixtures/auth'

test('a wrong or garbled submission link says it is invalid', async ({ page }) => {
  for (const path of ['/submissions/not-an-id/not-a-token', '/submissions/0192f0c2-0000-7000-8000-000000000000/%25%25garbled']) {
    const response = await page.goto(path)
    expect(response?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1, name: 'Link not valid' })).toBeVisible()
    await expect(page.getByText('This link is invalid or has expired.')).toBeVisible()
  }
  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
})

test('uploading to a wrong link is refused with the same message', async ({ request }) => {
  const response = await request.post('/api/submissions/nope/nope/files', {
    headers: { 'x-filename': 'essay.pdf', 'content-type': 'application/pdf' },
    data: Buffer.from('%PDF-1.4'),
  })
  expect(response.status()).toBe(404)
  expect(await response.json()).toEqual({ error: 'This link is invalid or has expired.' })
})

test.describe('the pupil page on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  // The page's calls are answered here (a real link's token only ever reaches the pupil's
  // mailbox; teacher-loop.spec.ts opens one end to end): what is tested is what the pupil sees.
  test('greets first, offers a labelled file button, and keeps Hand in again clear of the toast', async ({ page }) => {
    const view = {
      id: 'sub-1',
      assignment: {
        title: 'Book review',
        customTitle: null,
        body: '<p>Write a review of a book you read this term.</p>',
        submissionDueDate: null,
        schoolName: 'Northbridge Academy',
      },
      pupilForename: 'Amelia',
      content: null as string | null,
      files: [] as { id: string; filename: string; contentType: string; sizeBytes: number; url: string }[],
      receivedAt: null as string | null,
      late: false,
      markedAt: null,
      feedback: null,
      feedbackSentiment: null,
      feedbackPending: false,
    }
    const answer = () => ({
      result: { data: { json: view, ...(view.receivedAt ? { meta: { values: { receivedAt: ['Date'] } } } : {}) } },
    })
    await page.route(/\/api\/trpc\/submission\.(public|submit)/, async (route) => {
      if (route.request().method() === 'POST') {
        view.content = 'My review.'
        view.receivedAt = new Date().toISOString()
      }
      await route.fulfill({ json: [answer()] })
    })
    await page.route(/\/api\/submissions\/[^/]+\/[^/]+\/files$/, async (route) => {
      const file = { id: 'f1', filename: 'notes.txt', contentType: 'text/plain', sizeBytes: 12, url: '/nowhere' }
      view.files.push(file)
      await route.fulfill({ status: 201, json: file })
    })

    await page.goto('/submissions/sub-1/token-1')
    await expect(page.getByRole('heading', { level: 1, name: 'Book review' })).toBeVisible()

    // The greeting comes before the assignment's text.
    const greeting = await page.getByText('Hello Amelia,').boundingBox()
    const body = await page.getByText('Write a review of a book').boundingBox()
    expect(greeting!.y).toBeLessThan(body!.y)

    // The file picker is a labelled button with the chosen names, and still a file input.
    const input = page.getByLabel('Add files')
    await expect(input).toHaveAttribute('type', 'file')
    const button = page.locator('label', { hasText: 'Add files' })
    await expect(button).toBeVisible()
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(36)
    await expect(page.getByText('No file chosen')).toBeVisible()
    await input.focus()
    await expect(input).toBeFocused()
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('My notes.\n') })
    await expect(page.getByRole('list', { name: 'Your files' })).toContainText('notes.txt')

    await page.getByLabel('Your answer').fill('My review.')
    await page.getByRole('button', { name: 'Hand in', exact: true }).click()
    await expect(page.getByText('Your work has been handed in.').first()).toBeVisible()
    const again = page.getByRole('button', { name: 'Hand in again' })
    await expect(again).toBeVisible()
    // Nothing (the toast included) lies over the button: a click would reach it.
    await again.click({ trial: true, timeout: 2_000 })
    const box = (await again.boundingBox())!
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null,
      [box.x + box.width / 2, box.y + box.height / 2],
    )
    expect(hit).toBe('Hand in again')

    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
  })
})
