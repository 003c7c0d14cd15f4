// The side navigation: active-path rules, role filtering (with the real wasm hasRole), the
// Feedback Hub badge, the area switch and the palette shortcut.

import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'

import { hasRole, initSync } from '../../wasm/core_wasm.js'
import type { UserRole } from '@/lib/auth-client'

import {
  feedbackBadgeText,
  forcedIntoLeaders,
  isNavItemActive,
  isPaletteShortcut,
  LEADERS_NAV,
  matchesPattern,
  PUPIL_NAV,
  showsAreaSwitch,
  SUPERADMIN_NAV,
  visibleNavItems,
  type NavItem,
} from './navigation'

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../../wasm/core_wasm_bg.wasm', import.meta.url)) })
})

const item = (label: string, items: NavItem[]) => items.find((i) => i.label === label)!
const labels = (items: NavItem[]) => items.map((i) => i.label)
const coreAllows = (role: UserRole) => (roles: UserRole[]) => hasRole(role, roles)

describe('matchesPattern', () => {
  it('matches one segment per parameter and nothing more', () => {
    expect(matchesPattern('/notifications/:id/edit', '/notifications/42/edit')).toBe(true)
    expect(matchesPattern('/notifications/:id/edit', '/notifications/42/edit/x')).toBe(false)
    expect(matchesPattern('/notifications/:id/:tab', '/notifications/42')).toBe(false)
    expect(matchesPattern('/', '/')).toBe(true)
  })
})

describe('isNavItemActive', () => {
  const dashboard = item('Dashboard', PUPIL_NAV)
  const assignments = item('Assignments', PUPIL_NAV)
  const communication = item('Communication', PUPIL_NAV)
  const activity = item('Activity', PUPIL_NAV)
  const school = item('Manage School', PUPIL_NAV)
  const tasks = item('Tasks', LEADERS_NAV)
  const templates = item('Templates', LEADERS_NAV)

  it('marks Dashboard on / and on a notification being edited or viewed in a tab', () => {
    expect(isNavItemActive(dashboard, '/')).toBe(true)
    expect(isNavItemActive(dashboard, '/notifications/n1/edit')).toBe(true)
    expect(isNavItemActive(dashboard, '/notifications/n1/submissions')).toBe(true)
    expect(isNavItemActive(dashboard, '/notifications')).toBe(false)
    expect(isNavItemActive(dashboard, '/feedback')).toBe(false)
  })

  it('tells Assignments and Communication apart by the type query', () => {
    expect(isNavItemActive(assignments, '/notifications/create', '?type=ASSIGNMENT')).toBe(true)
    expect(isNavItemActive(assignments, '/notifications/create', '?type=GENERAL')).toBe(false)
    expect(isNavItemActive(communication, '/notifications/create', '?type=GENERAL')).toBe(true)
    expect(isNavItemActive(communication, '/notifications/create', '')).toBe(false)
  })

  it('keeps Activity to /notifications itself', () => {
    expect(isNavItemActive(activity, '/notifications')).toBe(true)
    expect(isNavItemActive(activity, '/notifications/create', '?type=GENERAL')).toBe(false)
  })

  it('marks Manage School for /admin and its tabs', () => {
    expect(isNavItemActive(school, '/admin')).toBe(true)
    expect(isNavItemActive(school, '/admin/users')).toBe(true)
    expect(isNavItemActive(school, '/administer')).toBe(false)
  })

  it('marks Tasks for /leaders and the task pages, Templates for the template pages', () => {
    for (const path of ['/leaders', '/leaders/tasks', '/leaders/tasks/create', '/leaders/tasks/t1/edit'])
      expect(isNavItemActive(tasks, path), path).toBe(true)
    expect(isNavItemActive(tasks, '/leaders/templates')).toBe(false)
    for (const path of ['/leaders/templates', '/leaders/templates/create', '/leaders/templates/t1', '/leaders/templates/t1/edit'])
      expect(isNavItemActive(templates, path), path).toBe(true)
    expect(isNavItemActive(templates, '/leaders/tasks')).toBe(false)
  })
})

describe('visibleNavItems with the core hasRole', () => {
  const everyone = ['Dashboard', 'Assignments', 'Communication', 'Feedback Hub', 'Activity', 'Voice notes']

  it('shows the pupil-area menu per role', () => {
    expect(labels(visibleNavItems(PUPIL_NAV, coreAllows('TEACHER')))).toEqual(everyone)
    expect(labels(visibleNavItems(PUPIL_NAV, coreAllows('ORG_ADMIN')))).toEqual(everyone)
    expect(labels(visibleNavItems(PUPIL_NAV, coreAllows('MAT_USER')))).toEqual(everyone)
    expect(labels(visibleNavItems(PUPIL_NAV, coreAllows('ADMIN')))).toEqual([...everyone, 'Manage School', 'Help & Support'])
    expect(labels(visibleNavItems(PUPIL_NAV, coreAllows('SUPERADMIN')))).toEqual(labels(PUPIL_NAV))
  })

  it('shows the leaders-area menu per role', () => {
    expect(labels(visibleNavItems(LEADERS_NAV, coreAllows('TEACHER')))).toEqual([
      'Tasks', 'Voice notes', 'Report generator', 'Insights', 'Support', 'Settings',
    ])
    const admins = ['Tasks', 'Templates', 'Voice notes', 'Report generator', 'Insights', 'Manage Users', 'Support', 'Settings']
    expect(labels(visibleNavItems(LEADERS_NAV, coreAllows('ADMIN')))).toEqual(admins)
    expect(labels(visibleNavItems(LEADERS_NAV, coreAllows('ORG_ADMIN')))).toEqual(admins)
    expect(labels(visibleNavItems(LEADERS_NAV, coreAllows('MAT_USER')))).toEqual([
      'Tasks', 'Voice notes', 'Report generator', 'Insights', 'Support', 'Switch Organisations', 'Settings',
    ])
    expect(labels(visibleNavItems(LEADERS_NAV, coreAllows('SUPERADMIN')))).toEqual(labels(LEADERS_NAV))
  })

  it('shows the superadmin menu to superadmins only', () => {
    for (const role of ['TEACHER', 'ADMIN', 'ORG_ADMIN', 'MAT_USER'] as const)
      expect(visibleNavItems(SUPERADMIN_NAV, coreAllows(role)), role).toEqual([])
    expect(labels(visibleNavItems(SUPERADMIN_NAV, coreAllows('SUPERADMIN')))).toEqual([
      'Manage users', 'Manage organisations', 'Setup', 'Background jobs',
    ])
    expect(item('Background jobs', SUPERADMIN_NAV)).toMatchObject({ to: '/api/bull', external: true })
  })

  it('hides every role-restricted item while the core has not answered', () => {
    expect(labels(visibleNavItems(PUPIL_NAV, () => false))).toEqual(everyone)
  })
})

describe('feedbackBadgeText', () => {
  it('is hidden at 0 (and before the count arrives), a number under 10, 9+ from 10', () => {
    expect(feedbackBadgeText(undefined)).toBeUndefined()
    expect(feedbackBadgeText(0)).toBeUndefined()
    expect(feedbackBadgeText(-1)).toBeUndefined()
    expect(feedbackBadgeText(1)).toBe('1')
    expect(feedbackBadgeText(9)).toBe('9')
    expect(feedbackBadgeText(10)).toBe('9+')
    expect(feedbackBadgeText(250)).toBe('9+')
  })
})

describe('area rules', () => {
  it('offers the area switch to superadmins and to leaders not forced into the leaders area', () => {
    expect(showsAreaSwitch({ role: 'SUPERADMIN', leader: false, redirectToLeaders: false })).toBe(true)
    expect(showsAreaSwitch({ role: 'SUPERADMIN', leader: false, redirectToLeaders: true })).toBe(true)
    expect(showsAreaSwitch({ role: 'ADMIN', leader: true, redirectToLeaders: false })).toBe(true)
    expect(showsAreaSwitch({ role: 'ADMIN', leader: true, redirectToLeaders: true })).toBe(false)
    expect(showsAreaSwitch({ role: 'TEACHER', leader: false, redirectToLeaders: false })).toBe(false)
  })

  it('keeps redirectToLeaders users in the leaders area unless they are superadmin', () => {
    expect(forcedIntoLeaders({ role: 'ADMIN', redirectToLeaders: true })).toBe(true)
    expect(forcedIntoLeaders({ role: 'SUPERADMIN', redirectToLeaders: true })).toBe(false)
    expect(forcedIntoLeaders({ role: 'TEACHER', redirectToLeaders: false })).toBe(false)
  })
})

describe('isPaletteShortcut', () => {
  const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {}) => ({
    key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods,
  })
  it('is Ctrl+K or Cmd+K', () => {
    expect(isPaletteShortcut(key('k', { ctrlKey: true }))).toBe(true)
    expect(isPaletteShortcut(key('K', { metaKey: true }))).toBe(true)
    expect(isPaletteShortcut(key('k'))).toBe(false)
    expect(isPaletteShortcut(key('j', { ctrlKey: true }))).toBe(false)
    expect(isPaletteShortcut(key('k', { ctrlKey: true, altKey: true }))).toBe(false)
  })
})
