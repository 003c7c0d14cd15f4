//! Opening the 'Upgrade to Pro' dialog from anywhere in the signed-in shell: the shell owns
//! the dialog and provides `openUpgrade`; a feature calls `useUpgrade()` (e.g. the tasks'
//! weekly limit and the Collaborate panel on Basic). Without the shell it does nothing.
//! `useCanUpgrade()` says whether the user may pay (spec section 6: upgrade prompts are for
//! admins and organisation admins); others are told who can (components/upgrade-call.tsx).

import { createContext, useContext, type ReactNode } from 'react'

import type { UserRole } from './auth-client'

/** Who may buy or change the school's plan (the server's `BILLING_ROLES`, plus superadmins). */
export const PLAN_ROLES: readonly UserRole[] = ['ADMIN', 'ORG_ADMIN', 'SUPERADMIN']

export function canChangePlan(role: UserRole): boolean {
  return PLAN_ROLES.includes(role)
}

interface UpgradeContextValue {
  open(): void
  canUpgrade: boolean
}

const UpgradeContext = createContext<UpgradeContextValue | null>(null)

export function UpgradeProvider({
  onUpgrade,
  canUpgrade,
  children,
}: {
  onUpgrade(): void
  canUpgrade: boolean
  children: ReactNode
}) {
  return <UpgradeContext.Provider value={{ open: onUpgrade, canUpgrade }}>{children}</UpgradeContext.Provider>
}

const nothing = () => {}

/** Opens the 'Upgrade to Pro' dialog (for a user who cannot pay, it explains who can). */
export function useUpgrade(): () => void {
  return useContext(UpgradeContext)?.open ?? nothing
}

/** Whether the user may upgrade the school themselves. */
export function useCanUpgrade(): boolean {
  return useContext(UpgradeContext)?.canUpgrade ?? false
}
