//! A user's status as every page shows it: the spec's list exactly (active, inactive,
//! pending). The server decides which one a user has (`core_wasm::roles::user_status`:
//! disabled is inactive, activated is active, the rest pending) and sends it as `status`;
//! the pages only label it, from here.

export const USER_STATUSES = ['active', 'inactive', 'pending'] as const
export type UserStatus = (typeof USER_STATUSES)[number]

const LABELS: Record<UserStatus, string> = { active: 'Active', inactive: 'Inactive', pending: 'Pending' }

/** "Active", "Inactive" or "Pending" (an unknown value shows as sent). */
export function userStatusLabel(status: string): string {
  return (LABELS as Record<string, string>)[status] ?? status
}

/** The badge colour of a status. */
export function userStatusTone(status: string): 'success' | 'warning' | 'secondary' {
  return status === 'active' ? 'success' : status === 'pending' ? 'warning' : 'secondary'
}
