//! `notification.countRecipients`: the live recipient count of the editor's audience.

import { useEffect, useState } from 'react'

import type { NotificationFilters } from '@/generated/rpc-types'
import { useRpcQuery } from '@/lib/rpc'

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
