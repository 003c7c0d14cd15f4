//! The assignments whose feedback is held, each with its state, count and 'Release feedback
//! (N)' (components/release-feedback.tsx, shared with the notification page): one press, after
//! a confirmation, releases every held mark of it through the job queue.

import { ReleaseFeedback } from '@/components/release-feedback'
import type { HeldGroup } from '@/generated/rpc-types'

export function HeldFeedback({ groups }: { groups: HeldGroup[] }) {
  if (groups.length === 0) return null
  return (
    <section aria-labelledby="held-heading" className="space-y-3 rounded-lg border border-border bg-muted/40 p-4">
      <h2 id="held-heading" className="text-lg font-semibold">
        Held feedback
      </h2>
      <ul className="space-y-4">
        {groups.map((group) => (
          <li key={group.notificationId} className="space-y-1" aria-label={`Held feedback: ${group.title}`}>
            <p className="font-medium">{group.title}</p>
            <ReleaseFeedback
              notificationId={group.notificationId}
              title={group.title}
              count={group.count}
              release={group.release}
              releaseAt={group.releaseAt}
            />
          </li>
        ))}
      </ul>
    </section>
  )
}
