//! `/`: what Voicemark is, and whether the server and the wasm core are working.

import { SystemStatus } from '@/features/system-status/components/system-status'

/** The product's purpose, as spec section 1 states it. */
export const PURPOSE =
  'Use voice recognition to give learners real-time quality feedback, improve outcomes and reduce teacher workload.'

export function HomePage() {
  return (
    <div className="space-y-8">
      <div className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">Voicemark</h1>
        <p className="text-lg text-muted-foreground">{PURPOSE}</p>
      </div>
      <SystemStatus />
    </div>
  )
}
