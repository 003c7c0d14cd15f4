//! `leader.listTaskFiles`: the task's content with each item's state. Refetched every few
//! seconds while an item is queued or being processed.

import type { TaskContentItem } from '@/generated/rpc-types'
import { rpcKey, useRpcQuery } from '@/lib/rpc'

export type { TaskContentItem }

/** How often the list is refreshed while something is being processed. */
export const POLL_MS = 3000

export const taskFilesKey = (taskId: string) => rpcKey('leader.listTaskFiles', { taskId })

export const isBusy = (item: TaskContentItem) => item.status === 'QUEUED' || item.status === 'PROCESSING'

export function useTaskFiles(taskId: string) {
  return useRpcQuery(
    'leader.listTaskFiles',
    { taskId },
    { refetchInterval: (query) => (query.state.data?.some(isBusy) ? POLL_MS : false) },
  )
}
