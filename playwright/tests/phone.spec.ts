// Every demo account on a phone (issue 26, item 1): on every route its role can reach, at
// 360 px, the page is no wider than the screen, the user menu button is fully on screen,
// and the burger menu's area switch ('For pupils' / 'For leaders') can be reached and
// tapped. The routes come from the navigation's own lists (app/src/app/shell/navigation.ts),
// so a new menu item is walked without touching this file.
import { expect, test, type Page } from '@playwright/test'

import {
  forcedIntoLeaders,
  LEADERS_NAV,
  PUPIL_NAV,
  SUPERADMIN_NAV,
  showsAreaSwitch,
  type NavItem,
} from '../../app/src/app/shell/navigation'
import type { UserRole as Role } from '../../app/src/lib/auth-client'
import { signIn } from '../fixtures/auth'
import type { DemoUser } from '../fixtures/users'

/** The seven demo accounts (`voicemark seed --demo`) as the navigation sees them. */
const ACCOUNTS: Record<Exclude<DemoUser, 'disabled' | 'notActivated'>, { role: Role; leader: boolean; redirectToLeaders: boolean }> = {
  superadmin: { role: 'SUPERADMIN', leader: true, redirectToLeaders: false },
  admin: { role: 'ADMIN', leader: true, redirectToLeaders: false },
  teacher: { role: 'TEACHER', leader: false, redirectToLeaders: false },
  orgAdmin: { role: 'ORG_ADMIN', leader: true, redirectToLeaders: false },
  matUser: { role: 'MAT_USER', leader: true, redirectToLeaders: false },
  riversideLeader: { role: 'ADMIN', leader: true, redirectToLeaders: true },
  newLeader: { role: 'ADMIN', leader: true, redirectToLeaders: false },
}

/** Pages outside the menus a user reaches from them: the user menu's Settings and the
 *  New buttons of the lists (same role rules as the router's guards). */
const PUPIL_EXTRA: NavItem[] = [
  { label: 'Settings', to: '/settings' },
  { label: 'New message', to: '/notifications/create' },
  // Manage School's tabs (features/admin/components/admin-page.tsx), each a route of its own.
  ...['staff', 'classes', 'year-groups', 'form-groups', 'settings', 'sync', 'privacy'].map(
    (tab): NavItem => ({ label: tab, to: `/admin/${tab}`, roles: ['ADMIN'] }),
  ),
]
const LEADERS_EXTRA: NavItem[] = [
  { label: 'New task', to: '/leaders/tasks/create' },
  { label: 'Create template', to: '/leaders/templates/create', roles: ['ADMIN', 'ORG_ADMIN'] },
]

function allowed(item: NavItem, role: Role): boolean {
  return !item.roles || role === 'SUPERADMIN' || item.roles.includes(role)
}

/** Every in-app route `account` can reach, leaders' pages last. */
function routesOf(account: (typeof ACCOUNTS)[keyof typeof ACCOUNTS], area: 'all' | 'leaders' = 'all') {
  const pupil = forcedIntoLeaders(account) || area === 'leaders' ? [] : [...PUPIL_NAV, ...PUPIL_EXTRA]
  const items = [...pupil, ...SUPERADMIN_NAV, ...LEADERS_NAV, ...LEADERS_EXTRA]
  return [...new Set(items.filter((item) => !item.external && allowed(item, account.role)).map((item) => item.to))]
}

const isLeaders = (route: string) => route.startsWith('/leaders')

/** The three promises of item 1 on the page as it is now. */
async function checkPage(page: Page, route: string, account: (typeof ACCOUNTS)[keyof typeof ACCOUNTS]) {
  await expect(page.getByRole('heading', { level: 1 }).first(), route).toBeVisible()
  // Wait out late content (lists arriving) before measuring.
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0)

  const widths = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    main: document.getElementById('main')?.scrollWidth ?? 0,
    mainBox: document.getElementById('main')?.clientWidth ?? 0,
    screen: window.innerWidth,
  }))
  expect(widths.document, `${route}: the page is no wider than the screen`).toBeLessThanOrEqual(widths.screen)
  expect(widths.main, `${route}: the page's content does not scroll sideways`).toBeLessThanOrEqual(widths.mainBox)

  const userMenu = page.getByRole('banner').getByRole('button', { name: 'User menu' })
  const box = await userMenu.boundingBox()
  expect(box, `${route}: the user menu button shows`).not.toBeNull()
  expect(box!.x, route).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width, `${route}: the user menu button is fully on screen`).toBeLessThanOrEqual(widths.screen)

  await page.getByRole('button', { name: 'Open menu' }).tap()
  const menu = page.getByRole('dialog', { name: 'Menu' })
  await expect(menu).toBeVisible()
  const areaSwitch = menu.getByRole('link', { name: isLeaders(route) ? 'For pupils' : 'For leaders' })
  if (showsAreaSwitch(account)) {
    await areaSwitch.scrollIntoViewIfNeeded()
    await expect(areaSwitch, `${route}: the area switch is on screen`).toBeInViewport({ ratio: 1 })
  } else {
    await expect(areaSwitch).toHaveCount(0)
  }
  await page.keyboard.press('Escape')
  await expect(menu).toBeHidden()
}

async function walk(page: Page, user: keyof typeof ACCOUNTS, area: 'all' | 'leaders' = 'all') {
  const account = ACCOUNTS[user]
  await signIn(page, user)
  const routes = routesOf(account, area)
  expect(routes.length).toBeGreaterThan(3)
  for (const route of routes) {
    await test.step(route, async () => {
      await page.goto(route)
      await checkPage(page, route, account)
    })
  }

  // The area switch is tapped, and the user menu reaches Log out.
  if (showsAreaSwitch(account)) {
    await page.getByRole('button', { name: 'Open menu' }).tap()
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'For pupils' }).tap()
    await expect(page).toHaveURL('/')
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  }
  await page.getByRole('banner').getByRole('button', { name: 'User menu' }).tap()
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeInViewport({ ratio: 1 })
}

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true })
  test.setTimeout(180_000)

  for (const user of Object.keys(ACCOUNTS) as (keyof typeof ACCOUNTS)[]) {
    test(`${user} reaches every page, the user menu and the area switch`, async ({ page }) => {
      await walk(page, user)
    })
  }
})

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })
  test.setTimeout(180_000)

  test('an admin reaches every leaders page', async ({ page }) => {
    await walk(page, 'admin', 'leaders')
  })

  test('the superadmin reaches every page', async ({ page }) => {
    await walk(page, 'superadmin')
  })
})

// Between a phone and a laptop the header's words come back only where they fit (1024 px).
for (const width of [640, 768, 1024]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 800 } })

    for (const user of ['superadmin', 'matUser'] as const) {
      test(`the header of ${user} fits the screen`, async ({ page }) => {
        await signIn(page, user)
        for (const route of ['/leaders/tasks', '/']) {
          await page.goto(route)
          await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
          const header = await page.getByRole('banner').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
          expect(header.scroll, `${route}: nothing in the header runs off it`).toBeLessThanOrEqual(header.client)
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
          const box = (await page.getByRole('banner').getByRole('button', { name: 'User menu' }).boundingBox())!
          expect(box.x + box.width).toBeLessThanOrEqual(width)
        }
      })
    }
  })
}
