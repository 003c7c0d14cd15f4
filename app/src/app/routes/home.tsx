//! `/`: the Dashboard. Until its content lands: what Voicemark is, and whether the server
//! and the wasm core are working.

import { SystemStatus } from '@/features/system-status/components/system-status'

/** The product's purpose, as spec section 1 states it. */
export const PURPOSE =
  'Use voice recognition to give learners real-time quality feedback, improve outcomes and reduce teacher workload.'

export function DashboardPage() {
  return (
    <div className="space-y-8">
      <div className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">Dashboard</h1>
        <p className="text-lg text-muted-foreground">{PURPOSE}</p>
        <p className="text-muted-foreground">Your notifications and submissions are coming soon.</p>
      </div>
      <SystemStatus />
    </div>
  )
}
