//! Privacy requests about one pupil: the profile-view log (`admin.profileViews`), erasure
//! (`admin.erasePupil`) and the export's download address (`GET /api/privacy/pupils/{id}/export`).

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc, useRpcMutation, useRpcQuery } from '@/lib/rpc'

export const useProfileViews = (page: number) =>
  useRpcQuery('admin.profileViews', { page }, { placeholderData: (previous) => previous })

/** Erases a pupil; every Manage School list is refreshed (the pupil leaves them all). */
export function useErasePupil() {
  const queryClient = useQueryClient()
  return useRpcMutation('admin.erasePupil', { onSuccess: () => invalidateRpc(queryClient, 'admin.') })
}

/** Where the browser downloads a pupil's export zip (same origin, session cookie). */
export const exportUrl = (pupilId: string) => `/api/privacy/pupils/${encodeURIComponent(pupilId)}/export`
