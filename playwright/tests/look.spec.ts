// The look of issue 26 (items 9 and 13): lists use a large screen's width, tables become
// cards on a phone, Manage School's tabs are one row that scrolls, and an empty list says
// why and offers the one thing to do.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

import { expect, test } from '../fixtures/auth'

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)
}

test.describe('on a large screen (1440 px)', () => {
  test.use({ viewport: { width: 1440, height: 900 } })

  test('a list uses the width, a form keeps a readable column', async ({ page, signIn }) => {
    await signIn('admin')
    await page.goto('/notifications')
    const table = page.getByRole('region', { name: 'Notifications' })
    await expect(table).toBeVisible()
    // 1440 less the 300 px sidebar and the page's padding: well over the old 896 px column.
    expect((await table.boundingBox())!.width).toBeGreaterThan(1000)

    await page.goto('/settings')
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible()
    expect((await page.getByRole('heading', { level: 1, name: 'Settings' }).boundingBox())!.x).toBeGreaterThan(300 + 100)
  })

  test('the navigation and the primary actions carry one icon each', async ({ page, signIn }) => {
    await signIn('admin')
    await page.goto('/')
    const links = page.getByRole('navigation', { name: 'Main' }).getByRole('link')
    await expect(links.first()).toBeVisible()
    const count = await links.count()
    for (let i = 0; i < count; i += 1) await expect(links.nth(i).locator('svg.lucide')).toHaveCount(1)
    // And the primary actions, from the same set.
    await page.goto('/notifications')
    await expect(page.getByRole('link', { name: 'New assignment' }).locator('svg.lucide')).toHaveCount(1)
    await page.goto('/voice-notes')
    await expect(page.getByRole('button', { name: 'Record voice note' }).locator('svg.lucide')).toHaveCount(1)
  })
})

test.describe('on a phone (360 px)', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true })

  test('Activity rows are cards: name first, every value on screen', async ({ page, signIn }) => {
    await signIn('admin')
    await page.goto('/notifications')
    const table = page.getByRole('region', { name: 'Notifications' })
    const row = table.getByRole('row').nth(1)
    await expect(row).toBeVisible()
    const cells = row.getByRole('cell')
    const name = (await cells.nth(0).boundingBox())!
    const status = (await cells.nth(2).boundingBox())!
    // Stacked, not side by side, and nothing scrolls sideways.
    expect(status.y).toBeGreaterThan(name.y + name.height - 1)
    expect(status.x + status.width).toBeLessThanOrEqual(360)
    expect(await table.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true)
    await expect(cells.nth(2)).toHaveAttribute('data-label', 'Status')
    expect(await seriousViolations(page)).toEqual([])
  })

  test("Manage School's tabs are one row that scrolls, the chosen tab in view", async ({ page, signIn }) => {
    await signIn('admin')
    await page.goto('/admin/privacy')
    await expect(page.getByRole('heading', { level: 1, name: 'Manage School' })).toBeVisible()
    const tabs = page.getByRole('navigation', { name: 'Manage School sections' })
    const links = tabs.getByRole('link')
    await expect(links).toHaveCount(8)
    // One row: every tab's top the same, read together once the layout has settled (read one
    // at a time, a full run once caught the row mid-layout).
    await expect
      .poll(() =>
        links.evaluateAll((all) => new Set(all.map((a) => Math.round(a.getBoundingClientRect().top))).size),
      )
      .toBe(1)
    expect(await tabs.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    await expect(tabs.getByRole('link', { name: 'Privacy' })).toBeInViewport({ ratio: 1 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  })
})

test('an empty list says why and offers the one thing to do', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/leaders/templates')
  await expect(page.getByRole('region', { name: 'Templates' })).toBeVisible()
  await page.getByLabel('Search templates').fill('zzzz no such template')
  await expect(page.getByText('No templates match', { exact: true })).toBeVisible()
  await expect(page.getByText('No template has this title and visibility.')).toBeVisible()
  expect(await seriousViolations(page)).toEqual([])
  await page.getByRole('button', { name: 'Show all templates' }).click()
  await expect(page.getByLabel('Search templates')).toHaveValue('')
  await expect(page.getByRole('region', { name: 'Templates' })).toBeVisible()

  await page.goto('/notifications')
  await page.getByLabel('Search by title').fill('zzzz no such notification')
  await expect(page.getByText('No notifications match your search')).toBeVisible()
  await page.getByRole('button', { name: 'Clear the search' }).click()
  await expect(page.getByRole('region', { name: 'Notifications' })).toBeVisible()
})
