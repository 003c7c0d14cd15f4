//! `feedback.list`: the submissions waiting for feedback, filtered by assignment and class
//! (the first page of each list, with the counts and the filters' choices); and
//! `feedback.listMore`: the pages after it, one list at a time (docs/scaling.md "Paged lists").

import { useInfiniteQuery } from '@tanstack/react-query'
import { useState } from 'react'

import type { FeedbackPage } from '@/generated/rpc-types'
import { rpcKey, rpcQuery, useRpcQuery } from '@/lib/rpc'

export interface HubFilters {
  notificationId: string | null
  classId: string | null
}

export const useFeedbackHub = (filters: HubFilters) => useRpcQuery('feedback.list', filters)

/**
 * More of one of the Hub's lists, after the first page: nothing until `more()` is first
 * called with where the first page ended (`waitingNext` / `markedNext`), then a page each
 * call. A mark or a refresh of `feedback.list*` fetches the pages loaded again from where they
 * started; a row both on the first page (moved up) and on a later one is shown once (the
 * page keeps the first). New filters start again with none.
 */
export function useMoreOfHub(filters: HubFilters, list: 'WAITING' | 'MARKED') {
  const [started, setStarted] = useState<{ filters: HubFilters; cursor: string } | null>(null)
  const start = started && started.filters === filters ? started.cursor : null
  const query = useInfiniteQuery({
    queryKey: [...rpcKey('feedback.listMore', { ...filters, list, start }), 'pages'],
    queryFn: ({ pageParam }) => rpcQuery('feedback.listMore', { ...filters, list, cursor: pageParam }),
    initialPageParam: start ?? '',
    getNextPageParam: (page: FeedbackPage) => page.nextCursor ?? undefined,
    enabled: start !== null,
  })
  const pages = start === null ? [] : (query.data?.pages ?? [])
  return {
    pages,
    loading: query.isFetching,
    error: query.error,
    /** Whether another page follows what is shown, given where the first page ends. */
    hasMore: (firstNext: string | null) => (start === null ? firstNext !== null : query.hasNextPage),
    more: (firstNext: string | null) => {
      if (start === null) {
        if (firstNext) setStarted({ filters, cursor: firstNext })
      } else void query.fetchNextPage()
    },
  }
}
