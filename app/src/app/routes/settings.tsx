//! `/settings` and `/leaders/settings`: the user's settings, and below them the system-status
//! card (server health, wasm core version) — where someone reporting a problem looks for the
//! version, out of the way of the everyday Dashboard. Composed here so neither feature imports
//! the other.

import { SettingsPage } from '@/features/settings/components/settings-page'
import { SystemStatus } from '@/features/system-status/components/system-status'

export function SettingsRoute() {
  return (
    <div className="space-y-6">
      <SettingsPage />
      <SystemStatus />
    </div>
  )
}
