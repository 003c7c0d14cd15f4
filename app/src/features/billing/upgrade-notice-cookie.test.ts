import { describe, expect, it } from 'vitest'

import { hasHideUpgradeNotice, hideUpgradeNoticeCookie } from './upgrade-notice-cookie'

describe('hideUpgradeNotice cookie', () => {
  it('lasts 7 days on the whole site', () => {
    expect(hideUpgradeNoticeCookie(false)).toBe('hideUpgradeNotice=1; Max-Age=604800; Path=/; SameSite=Lax')
    expect(hideUpgradeNoticeCookie(true)).toContain('; Secure')
  })

  it('is found among other cookies and not confused with similar names', () => {
    expect(hasHideUpgradeNotice('a=1; hideUpgradeNotice=1')).toBe(true)
    expect(hasHideUpgradeNotice('hideUpgradeNotice=1')).toBe(true)
    expect(hasHideUpgradeNotice('xhideUpgradeNotice=1; b=2')).toBe(false)
    expect(hasHideUpgradeNotice('')).toBe(false)
  })
})
