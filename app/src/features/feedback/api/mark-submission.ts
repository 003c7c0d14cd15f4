//! `feedback.mark`: the marking form's schema and the mutation; marking refreshes the list,
//! the badge (`user.feedbackHubCount`) and the dashboard.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { MAX_FEEDBACK_CHARS } from '@/generated/limits'
import { requiredText } from '@/lib/form-limits'
import { rpcKey, useRpcMutation } from '@/lib/rpc'

export const markSchema = z.object({
  feedback: requiredText('Write your feedback.', MAX_FEEDBACK_CHARS),
  sentiment: z.enum(['NEUTRAL', 'POSITIVE', 'NEGATIVE']),
})

export type MarkValues = z.infer<typeof markSchema>

export function useMarkSubmission() {
  const queryClient = useQueryClient()
  return useRpcMutation('feedback.mark', {
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: rpcKey('feedback.list') })
      void queryClient.invalidateQueries({ queryKey: rpcKey('user.feedbackHubCount') })
      void queryClient.invalidateQueries({ queryKey: rpcKey('dashboard.summary') })
    },
  })
}
