//! The editor's and view page's calls: `notification.*` queries and cache refreshes.

import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'

import type { NotificationFilters } from '@/generated/rpc-types'
import { useRpcQuery } from '@/lib/rpc'

export const useNotification = (id: string) => useRpcQuery('notification.get', { id }, { retry: false })
export const useRecipients = (id: string) => useRpcQuery('notification.recipients', { id })
export const useSubmissions = (id: string) => useRpcQuery('notification.submissions', { id })
export const useAudienceOptions = () => useRpcQuery('notification.filterOptions', undefined, { staleTime: 60_000 })

/** The live recipient count for `filters`, asked at most every 300 ms while they change. */
export function useRecipientCount(filters: NotificationFilters) {
  const [settled, setSettled] = useState(filters)
  const key = JSON.stringify(filters)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as NotificationFilters), 300)
    return () => clearTimeout(timer)
  }, [key])
  return useRpcQuery('notification.countRecipients', { filters: settled }, { placeholderData: (previous) => previous })
}

/** Refreshes every `notification.*` query (Activity, the view page) after a save. */
export function useRefreshNotifications() {
  const queryClient = useQueryClient()
  return () =>
    queryClient.invalidateQueries({
      predicate: (query) => {
        const [root, path] = query.queryKey as [unknown, unknown]
        return root === 'rpc' && typeof path === 'string' && path.startsWith('notification.')
      },
    })
}
