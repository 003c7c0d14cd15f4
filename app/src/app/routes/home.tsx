//! `/`: the Dashboard — what needs the teacher today. (The system-status card, a developer's
//! check of the server and the wasm core, lives on the Settings page, not here.)

import { DashboardSummary } from '@/features/dashboard/components/dashboard-summary'

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
    </div>
  )
}
