//! `feedback.mark`: the marking form's schema and the mark itself, which goes through the
//! outbox (lib/outbox): saved on the device first, so a mark written offline is sent when the
//! connection returns. Marking refreshes the list, the badge (`user.feedbackHubCount`) and
//! the dashboard, and the Hub hides a submission whose mark is on its way.

import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { z } from 'zod'

import { MAX_FEEDBACK_CHARS } from '@/generated/limits'
import { requiredText } from '@/lib/form-limits'
import { outbox, useOutboxItems } from '@/lib/outbox/use-outbox'
import { invalidateRpc } from '@/lib/rpc'

export const markSchema = z.object({
  feedback: requiredText('Write your feedback.', MAX_FEEDBACK_CHARS),
  sentiment: z.enum(['NEUTRAL', 'POSITIVE', 'NEGATIVE']),
})

export type MarkValues = z.infer<typeof markSchema>

/** What a mark refreshes once the server has it (the bank's suggestions: the three-times rule). */
const REFRESH = ['feedback.list', 'user.feedbackHubCount', 'dashboard.summary', 'commentBank.suggestions']

/**
 * Marks a submission: resolves `true` when the server has the mark, `false` when it is kept
 * on the device to send later; a refusal (a field error, a deleted submission) is thrown.
 */
export function useMarkSubmission() {
  const queryClient = useQueryClient()
  return useCallback(
    async (submissionId: string, pupilName: string, values: MarkValues) => {
      const outcome = await outbox.submit(
        `Feedback for ${pupilName}`,
        { type: 'mutation', path: 'feedback.mark', input: { submissionId, ...values } },
        REFRESH,
      )
      if (outcome.sent) for (const prefix of REFRESH) void invalidateRpc(queryClient, prefix)
      return outcome.sent
    },
    [queryClient],
  )
}

/**
 * Submissions whose mark is in the outbox and not stuck: waiting or sending, or sent after
 * `listedAt` (when the page's list was fetched), so a list fetched before the server had the
 * mark does not show it again. A mark sent before the list was fetched is the list's to show
 * (it may have been withdrawn since).
 */
export function useMarksOnTheirWay(listedAt: number): Set<string> {
  const items = useOutboxItems()
  const ids = new Set<string>()
  for (const item of items) {
    if (item.state === 'stuck' || item.job?.type !== 'mutation' || item.job.path !== 'feedback.mark') continue
    if (item.state === 'sent' && (item.sentAt ?? 0) <= listedAt) continue
    const id = item.job.input.submissionId
    if (typeof id === 'string') ids.add(id)
  }
  return ids
}
