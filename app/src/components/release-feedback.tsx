//! Held feedback of one assignment (docs/feedback-release.md): "Held until dd/MM/yyyy, HH:mm"
//! or "Held: release by hand" with the count, and 'Release feedback (N)', which asks first
//! and then calls `feedback.release` and says how many marks went out. Shared by the
//! notification page (Activity) and the Feedback Hub.

import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'

import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'
import { formatDate } from '@/lib/format-date'
import { usePupilWord } from '@/lib/pupil-word'
import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

/** "Held until 05/12/2026, 16:00" (ON_DATE with a date) or "Held: release by hand". */
export function heldLabel(release: 'ON_DATE' | 'BY_HAND' | 'WHEN_MARKED', releaseAt: Date | null): string {
  if (release === 'ON_DATE' && releaseAt) return `Held until ${formatDate(releaseAt, true)}`
  if (release === 'BY_HAND') return 'Held: release by hand'
  // When marked (just switched) or a date not known: the release is on its way.
  return 'Held: being released'
}

/** "1 mark held", "3 marks held". */
export function heldCount(count: number): string {
  return `${count} ${count === 1 ? 'mark' : 'marks'} held`
}

export function ReleaseFeedback({
  notificationId,
  title,
  count,
  release,
  releaseAt,
}: {
  notificationId: string
  /** The assignment's title, for the question. */
  title: string
  count: number
  release: 'ON_DATE' | 'BY_HAND' | 'WHEN_MARKED'
  releaseAt: Date | null
}) {
  const { toast } = useToast()
  const word = usePupilWord()
  const queryClient = useQueryClient()
  const [asking, setAsking] = useState(false)
  const [outcome, setOutcome] = useState<string | null>(null)
  const releaseFeedback = useRpcMutation('feedback.release', {
    onSuccess: () => {
      void invalidateRpc(queryClient, 'notification.')
      void invalidateRpc(queryClient, 'feedback.')
    },
  })
  const confirm = async () => {
    try {
      const { released } = await releaseFeedback.mutateAsync({ notificationId })
      const text = released === 1 ? 'Feedback released: 1 mark.' : `Feedback released: ${released} marks.`
      setOutcome(text)
      toast({ title: text, tone: 'success' })
      setAsking(false)
    } catch (error) {
      toast(failureToast(error))
    }
  }
  return (
    <div className="space-y-2">
      <p className="text-sm">
        <span className="font-medium">{heldLabel(release, releaseAt)}</span> · {heldCount(count)}
      </p>
      {count > 0 && (
        <Button type="button" onClick={() => setAsking(true)} disabled={releaseFeedback.isPending}>
          Release feedback ({count})
        </Button>
      )}
      <p role="status" className="text-sm text-muted-foreground">
        {outcome}
      </p>
      <Dialog open={asking} onOpenChange={(open) => !open && setAsking(false)}>
        <DialogContent>
          <div className="space-y-4">
            <DialogTitle className="text-lg font-semibold">Release feedback?</DialogTitle>
            <DialogDescription className="text-sm text-muted-foreground">
              {`The feedback on ${count === 1 ? '1 submission' : `${count} submissions`} of “${title}” will be shown to ${word.many} and e-mailed to them and their parents now. It can no longer be changed after that.`}
            </DialogDescription>
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => setAsking(false)}>
                Cancel
              </Button>
              <Button type="button" onClick={confirm} disabled={releaseFeedback.isPending}>
                Release feedback ({count})
              </Button>
            </div>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  )
}
