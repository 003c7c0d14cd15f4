//! `feedback.withdraw` (docs/feedback-release.md): takes back a held mark, so the submission
//! waits again. Refreshes the Hub, its badge and the dashboard.

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

const REFRESH = ['feedback.list', 'user.feedbackHubCount', 'dashboard.summary']

export function useWithdrawMark() {
  const queryClient = useQueryClient()
  return useRpcMutation('feedback.withdraw', {
    onSuccess: () => Promise.all(REFRESH.map((prefix) => invalidateRpc(queryClient, prefix))),
  })
}
