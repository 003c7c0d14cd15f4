//! The side navigation of spec section 2: items, who sees them, and when each is active.
//! Pure data and functions; role checks are passed in (the shell asks the wasm core).

// Relative, not '@/': playwright/tests/phone.spec.ts reads the menus from this file too.
import type { UserRole } from '../../lib/auth-client'

export interface NavItem {
  label: string
  /** Where the link goes (may carry a query, e.g. `?type=ASSIGNMENT`). */
  to: string
  /** Roles allowed to see it (a superadmin always passes); none = everyone. */
  roles?: UserRole[]
  /** Extra path patterns (`:param` = one segment) for which the item is also active. */
  alsoActiveFor?: string[]
  /** Opens outside the app, in a new tab. */
  external?: boolean
  badge?: 'feedbackHub'
  /** The `data-tour` anchor of the onboarding tour's step that points at this link. */
  tour?: string
}

export const PUPIL_NAV: NavItem[] = [
  { label: 'Dashboard', to: '/', alsoActiveFor: ['/notifications/:id/edit', '/notifications/:id/:activeTab'] },
  { label: 'Assignments', to: '/notifications/create?type=ASSIGNMENT' },
  { label: 'Communication', to: '/notifications/create?type=GENERAL' },
  { label: 'Feedback Hub', to: '/feedback', badge: 'feedbackHub' },
  { label: 'Activity', to: '/notifications' },
  { label: 'Voice notes', to: '/voice-notes' },
  { label: 'Manage School', to: '/admin', roles: ['ADMIN'], alsoActiveFor: ['/admin/:activeTab'] },
  { label: 'Help & Support', to: '/support', roles: ['ADMIN'] },
]

export const LEADERS_NAV: NavItem[] = [
  {
    label: 'Tasks',
    to: '/leaders/tasks',
    alsoActiveFor: ['/leaders', '/leaders/tasks/create', '/leaders/tasks/:id/edit'],
    tour: 'nav-tasks',
  },
  {
    label: 'Templates',
    to: '/leaders/templates',
    roles: ['ADMIN', 'ORG_ADMIN'],
    alsoActiveFor: ['/leaders/templates/create', '/leaders/templates/:id', '/leaders/templates/:id/edit'],
    tour: 'nav-templates',
  },
  { label: 'Voice notes', to: '/leaders/voice-notes' },
  { label: 'Report generator', to: '/leaders/report-generator', tour: 'nav-report-generator' },
  { label: 'Insights', to: '/leaders/insights' },
  { label: 'Manage Users', to: '/leaders/users', roles: ['ADMIN', 'ORG_ADMIN'] },
  { label: 'Support', to: '/leaders/support' },
  { label: 'Switch Organisations', to: '/leaders/organisations', roles: ['MAT_USER'] },
  { label: 'Settings', to: '/leaders/settings' },
]

export const SUPERADMIN_NAV: NavItem[] = [
  { label: 'Manage users', to: '/users', roles: ['SUPERADMIN'] },
  { label: 'Manage organisations', to: '/schools', roles: ['SUPERADMIN'] },
  { label: 'Setup', to: '/setup', roles: ['SUPERADMIN'] },
  { label: 'Background jobs', to: '/api/bull', roles: ['SUPERADMIN'], external: true },
]

/** Every distinct role list the menus use, for asking the core once per list. */
export const ROLE_LISTS: UserRole[][] = uniqueRoleLists([...PUPIL_NAV, ...LEADERS_NAV, ...SUPERADMIN_NAV])

function uniqueRoleLists(items: NavItem[]): UserRole[][] {
  const seen = new Map<string, UserRole[]>()
  for (const item of items) if (item.roles) seen.set(roleListKey(item.roles), item.roles)
  return [...seen.values()]
}

export function roleListKey(roles: readonly UserRole[]): string {
  return roles.join(',')
}

/** Whether `pattern` (segments, `:x` matching any one segment) matches `pathname`. */
export function matchesPattern(pattern: string, pathname: string): boolean {
  const want = segments(pattern)
  const have = segments(pathname)
  if (want.length !== have.length) return false
  return want.every((part, i) => part.startsWith(':') || part === have[i])
}

function segments(path: string): string[] {
  return path.split('/').filter(Boolean)
}

/**
 * Whether `item` is the current page: its own path (and, when its link has a query, the same
 * query values) or one of its extra patterns.
 */
export function isNavItemActive(item: NavItem, pathname: string, search = ''): boolean {
  const [path, query] = item.to.split('?')
  if (pathname === path || (pathname !== '/' && pathname.replace(/\/+$/, '') === path)) {
    if (!query) return true
    const current = new URLSearchParams(search)
    return [...new URLSearchParams(query)].every(([key, value]) => current.get(key) === value)
  }
  return (item.alsoActiveFor ?? []).some((pattern) => matchesPattern(pattern, pathname))
}

/** The items `allowed` lets through (items without a role list are always kept). */
export function visibleNavItems(items: NavItem[], allowed: (roles: UserRole[]) => boolean): NavItem[] {
  return items.filter((item) => !item.roles || allowed(item.roles))
}

/** The Feedback Hub badge text: none at 0, the number under 10, "9+" from 10. */
export function feedbackBadgeText(count: number | undefined): string | undefined {
  if (count === undefined || !Number.isFinite(count) || count <= 0) return undefined
  return count < 10 ? String(Math.floor(count)) : '9+'
}

/**
 * Whether the bottom link to the other area shows: superadmins, and leaders who are not
 * forced into the leaders area.
 */
export function showsAreaSwitch(user: { role: UserRole; leader: boolean; redirectToLeaders: boolean }): boolean {
  return user.role === 'SUPERADMIN' || (user.leader && !user.redirectToLeaders)
}

/** Whether a user must stay in the leaders area (spec section 4). */
export function forcedIntoLeaders(user: { role: UserRole; redirectToLeaders: boolean }): boolean {
  return user.redirectToLeaders && user.role !== 'SUPERADMIN'
}

/** Whether a keydown is mod+K (Ctrl+K, or Cmd+K on a Mac) for the search palette. */
export function isPaletteShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  return event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey
}
