// Each demo role sees exactly its menu items (spec sections 2 and 6), in both areas.
import { expect, navLabels, test } from '../fixtures/auth'

const PUPIL_ALL = ['Dashboard', 'Assignments', 'Communication', 'Feedback Hub', 'Activity', 'Voice notes']
const PUPIL_ADMIN = [...PUPIL_ALL, 'Manage School', 'Help & Support']
const LEADERS_ADMIN = ['Tasks', 'Templates', 'Voice notes', 'Report generator', 'Insights', 'Manage Users', 'Support', 'Settings']
const SUPERADMIN_MENU = ['Manage users', 'Manage organisations', 'Setup', 'Background jobs']

/** What each role sees: the pupil-area menu, the leaders-area menu, the area switch. */
const EXPECTED = {
  teacher: {
    pupil: PUPIL_ALL,
    leaders: ['Tasks', 'Voice notes', 'Report generator', 'Insights', 'Support', 'Settings'],
    switch: false,
    superadmin: false,
  },
  admin: { pupil: PUPIL_ADMIN, leaders: LEADERS_ADMIN, switch: true, superadmin: false },
  orgAdmin: { pupil: PUPIL_ALL, leaders: LEADERS_ADMIN, switch: true, superadmin: false },
  matUser: {
    pupil: PUPIL_ALL,
    leaders: ['Tasks', 'Voice notes', 'Report generator', 'Insights', 'Support', 'Switch Organisations', 'Settings'],
    switch: true,
    superadmin: false,
  },
  superadmin: {
    pupil: PUPIL_ADMIN,
    leaders: [
      'Tasks', 'Templates', 'Voice notes', 'Report generator', 'Insights', 'Manage Users', 'Support', 'Switch Organisations', 'Settings',
    ],
    switch: true,
    superadmin: true,
  },
} as const

for (const [user, expected] of Object.entries(EXPECTED) as [keyof typeof EXPECTED, (typeof EXPECTED)[keyof typeof EXPECTED]][]) {
  test(`${user} sees exactly its menus`, async ({ page, signIn }) => {
    await signIn(user)

    await page.goto('/')
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
    expect(await navLabels(page, 'Main')).toEqual(expected.pupil)
    await expect(page.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page')
    if (expected.superadmin) expect(await navLabels(page, 'Superadmin')).toEqual(SUPERADMIN_MENU)
    else await expect(page.getByRole('navigation', { name: 'Superadmin' })).toHaveCount(0)
    await expect(page.getByRole('link', { name: 'For leaders' })).toHaveCount(expected.switch ? 1 : 0)

    await page.goto('/leaders/tasks')
    await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible()
    expect(await navLabels(page, 'Leaders')).toEqual(expected.leaders)
    await expect(page.getByRole('link', { name: 'For pupils' })).toHaveCount(expected.switch ? 1 : 0)
  })
}

test('a user kept in the leaders area sees the leaders menu and no switch', async ({ page, signIn }) => {
  await signIn('riversideLeader')
  await page.goto('/leaders/tasks')
  expect(await navLabels(page, 'Leaders')).toEqual(LEADERS_ADMIN)
  await expect(page.getByRole('link', { name: 'For pupils' })).toHaveCount(0)
})

test('active items follow the path rules', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/notifications/n1/edit')
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  await page.goto('/admin/users')
  await expect(page.getByRole('link', { name: 'Manage School' })).toHaveAttribute('aria-current', 'page')
  await page.goto('/leaders')
  await expect(page.getByRole('link', { name: 'Tasks' })).toHaveAttribute('aria-current', 'page')
  await page.getByRole('link', { name: 'Templates' }).click()
  await expect(page).toHaveURL('/leaders/templates')
  await expect(page.getByRole('link', { name: 'Templates' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('link', { name: 'Tasks' })).not.toHaveAttribute('aria-current', 'page')
})

test('the switch link moves between the areas', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/')
  await page.getByRole('link', { name: 'For leaders' }).click()
  await expect(page).toHaveURL('/leaders/tasks')
  await page.getByRole('link', { name: 'For pupils' }).click()
  await expect(page).toHaveURL('/')
})

test('Upgrade to Pro shows for an admin without Pro in the leaders area only', async ({ page, signIn }) => {
  await signIn('admin')
  await page.goto('/')
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible()
  await expect(page.getByRole('banner').getByRole('button', { name: 'Upgrade to Pro' })).toHaveCount(0)
  await page.goto('/leaders/tasks')
  const upgrade = page.getByRole('banner').getByRole('button', { name: 'Upgrade to Pro' })
  await expect(upgrade).toBeVisible()
  await upgrade.click()
  const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro' })
  await expect(dialog).toBeVisible()
  await expect(dialog).toContainText('Pro gives unlimited tasks, priority support, team collaboration and extra users.')
  await dialog.getByRole('button', { name: 'Contact support' }).click()
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL('/leaders/support')
  await expect(page.getByRole('heading', { level: 2, name: 'Contact support' })).toBeVisible()
})

test('on a small screen the burger opens the menu as a sheet', async ({ page, signIn }) => {
  await page.setViewportSize({ width: 390, height: 800 })
  await signIn('teacher')
  await page.goto('/')
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden()
  await page.getByRole('button', { name: 'Open menu' }).click()
  const sheet = page.getByRole('dialog', { name: 'Menu' })
  await expect(sheet).toBeVisible()
  await sheet.getByRole('link', { name: 'Voice notes' }).click()
  await expect(page).toHaveURL('/voice-notes')
  await expect(sheet).toBeHidden()
})

test('the user menu offers Upgrade to Pro without Pro and Manage subscription with it', async ({ page, signIn }) => {
  await signIn('teacher')
  await page.goto('/')
  await page.getByRole('button', { name: 'User menu' }).click()
  const menu = page.getByRole('menu')
  await expect(menu.getByRole('menuitem')).toHaveText(['Settings', 'Upgrade to Pro', 'Log out'])
  await menu.getByRole('menuitem', { name: 'Settings' }).click()
  await expect(page).toHaveURL('/settings')

  await page.context().clearCookies()
  await signIn('superadmin')
  await page.goto('/leaders/tasks')
  await page.getByRole('button', { name: 'User menu' }).click()
  await expect(page.getByRole('menu').getByRole('menuitem')).toHaveText(['Settings', 'Manage subscription', 'Log out'])
  await page.getByRole('menuitem', { name: 'Settings' }).click()
  await expect(page).toHaveURL('/leaders/settings')
  await page.getByRole('button', { name: 'User menu' }).click()
  await page.getByRole('menuitem', { name: 'Manage subscription' }).click()
  await expect(page).toHaveURL('/leaders/support')
  await expect(page.getByRole('heading', { level: 2, name: 'Contact support' })).toBeVisible()
})
