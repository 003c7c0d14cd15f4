//! Opening the 'Upgrade to Pro' dialog from anywhere in the signed-in shell: the shell owns
//! the dialog and provides `openUpgrade`; a feature calls `useUpgrade()` (e.g. the tasks'
//! weekly limit and the Collaborate panel on Basic). Without the shell it does nothing.

import { createContext, useContext, type ReactNode } from 'react'

const UpgradeContext = createContext<(() => void) | null>(null)

export function UpgradeProvider({ onUpgrade, children }: { onUpgrade(): void; children: ReactNode }) {
  return <UpgradeContext.Provider value={onUpgrade}>{children}</UpgradeContext.Provider>
}

const nothing = () => {}

/** Opens the 'Upgrade to Pro' dialog. */
export function useUpgrade(): () => void {
  return useContext(UpgradeContext) ?? nothing
}
