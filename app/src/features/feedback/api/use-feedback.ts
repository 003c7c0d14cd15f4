//! The Feedback Hub's list and the marking mutation; marking refreshes the list, the badge
//! (`user.feedbackHubCount`) and the dashboard.

import { useMutation, useQueryClient } from '@tanstack/react-query'

import type { MarkInput } from '@/generated/rpc-types'
import { rpcKey, rpcMutation, useRpcQuery } from '@/lib/rpc'

export interface HubFilters {
  notificationId: string | null
  classId: string | null
}

export function useFeedbackHub(filters: HubFilters) {
  return useRpcQuery('feedback.list', filters)
}

export function useMarkSubmission() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: MarkInput) => rpcMutation('feedback.mark', input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: rpcKey('feedback.list') })
      void queryClient.invalidateQueries({ queryKey: rpcKey('user.feedbackHubCount') })
      void queryClient.invalidateQueries({ queryKey: rpcKey('dashboard.summary') })
    },
  })
}
