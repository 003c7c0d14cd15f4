//! `/`: the Dashboard — what needs the teacher today — with the small system-status card
//! (server health and the wasm core) at the bottom.

import { DashboardSummary } from '@/features/dashboard/components/dashboard-summary'
import { SystemStatus } from '@/features/system-status/components/system-status'

/** The product's purpose, as spec section 1 states it. */
export const PURPOSE =
  'Use voice recognition to give learners real-time quality feedback, improve outcomes and reduce teacher workload.'

export function DashboardPage() {
  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Dashboard</h1>
        <p className="text-muted-foreground">{PURPOSE}</p>
      </div>
      <DashboardSummary />
      <SystemStatus />
    </div>
  )
}
