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
