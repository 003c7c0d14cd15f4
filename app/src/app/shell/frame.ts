//! The frame's small rules, kept out of navigation.ts (which the first page's bundle carries
//! through the route guards): the search button's shortcut hint and each page's width.

import { matchesPattern } from './navigation'

/** Whether the browser runs on an Apple computer (or iPad), where the shortcut is ⌘K. */
export function isApplePlatform(platform: string): boolean {
  return /mac|iphone|ipad|ipod/i.test(platform)
}

/** The search button's shortcut hint: ⌘K on a Mac, Ctrl K elsewhere. */
export function paletteShortcutHint(
  platform: string = typeof navigator === 'undefined'
    ? ''
    : ((navigator as Navigator & { userAgentData?: { platform?: string } }).userAgentData?.platform ?? navigator.platform),
): string {
  return isApplePlatform(platform) ? '⌘K' : 'Ctrl K'
}

/** Lists and tables that use a large screen's width (issue 26: no narrow centre column). */
const WIDE_PAGES = [
  '/',
  '/notifications',
  '/notifications/:id/:activeTab',
  '/feedback',
  '/voice-notes',
  '/admin',
  '/admin/:activeTab',
  '/students/:id',
  '/leaders',
  '/leaders/tasks',
  '/leaders/templates',
  '/leaders/voice-notes',
  '/leaders/users',
  '/leaders/organisations',
  '/users',
  '/schools',
]

/** The width class of the page frame: lists and tables wide, forms and reading pages narrow. */
export function pageWidthClass(pathname: string): string {
  const path = pathname === '/' ? '/' : pathname.replace(/\/+$/, '')
  const form = /\/(create|edit)$/.test(path)
  return !form && WIDE_PAGES.some((pattern) => matchesPattern(pattern, path)) ? 'max-w-screen-2xl' : 'max-w-4xl'
}
