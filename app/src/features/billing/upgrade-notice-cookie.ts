//! The `hideUpgradeNotice` cookie (spec section 3): 'Remind me next week' hides the
//! 'Unlock more features' banner for 7 days.

export const HIDE_UPGRADE_NOTICE = 'hideUpgradeNotice'
export const HIDE_FOR_SECONDS = 7 * 24 * 60 * 60

/** Whether `cookies` (a `document.cookie` string) holds the dismissal. */
export function hasHideUpgradeNotice(cookies: string): boolean {
  return cookies.split(';').some((part) => part.trim().startsWith(`${HIDE_UPGRADE_NOTICE}=`))
}

/** The `document.cookie` assignment that hides the banner for 7 days. */
export function hideUpgradeNoticeCookie(secure: boolean): string {
  return `${HIDE_UPGRADE_NOTICE}=1; Max-Age=${HIDE_FOR_SECONDS}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`
}
