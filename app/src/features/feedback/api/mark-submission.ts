//! `feedback.mark`: the marking form's schema and the mutation; marking refreshes the list,
//! the badge (`user.feedbackHubCount`) and the dashboard.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { rpcKey, useRpcMutation } from '@/lib/rpc'

export const markSchema = z.object({
  feedback: z
    .string()
    .refine((value) => value.trim().length > 0, 'Write your feedback.')
    .refine((value) => value.length <= 10_000, 'Feedback must be at most 10000 characters.'),
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
