//! `notification.update` for a sent assignment's 'Feedback release' only: every other field
//! goes back as stored (the server refuses any other change once sent) and the setting
//! applies to the marks still held (docs/feedback-release.md).

import { useQueryClient } from '@tanstack/react-query'

import type { NotificationDetail } from '@/generated/rpc-types'
import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useChangeRelease() {
  const queryClient = useQueryClient()
  const mutation = useRpcMutation('notification.update', {
    onSuccess: () => {
      void invalidateRpc(queryClient, 'notification.')
      void invalidateRpc(queryClient, 'feedback.')
    },
  })
  return {
    ...mutation,
    change: (n: NotificationDetail, feedbackRelease: NotificationDetail['feedbackRelease'], feedbackReleaseAt: Date | null) =>
      mutation.mutateAsync({
        id: n.id,
        title: n.title,
        customTitle: n.customTitle,
        body: n.body,
        sendDate: n.sendDate,
        submissionDueDate: n.submissionDueDate,
        sendToPupil: n.sendToPupil,
        sendToParent: n.sendToParent,
        filters: n.filters,
        feedbackRelease,
        feedbackReleaseAt,
      }),
  }
}
