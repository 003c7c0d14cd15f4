//! `/`: the Dashboard — what needs the teacher today. (The system-status card, a developer's
//! check of the server and the wasm core, lives on the Settings page, not here.)

import { PageTitle } from '@/components/page-title'
import { DashboardSummary } from '@/features/dashboard/components/dashboard-summary'
import { FIRST_FRAMES } from '@/lib/first-frame'

export function DashboardPage() {
  return (
    <div className="space-y-8">
      <PageTitle {...FIRST_FRAMES['/']} />
      <DashboardSummary />
    </div>
  )
}
