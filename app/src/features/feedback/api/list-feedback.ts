//! `feedback.list`: the submissions waiting for feedback, filtered by assignment and class
//! (the first page of each list, with the counts and the filters' choices); and
//! `feedback.listMore`: the pages after it, one list at a time (docs/scaling.md "Paged lists").

import { useMorePages, useRpcQuery } from '@/lib/rpc'

export interface HubFilters {
  notificationId: string | null
  classId: string | null
}

export const useFeedbackHub = (filters: HubFilters) => useRpcQuery('feedback.list', filters)

/**
 * More of one of the Hub's lists, after the first page (`useMorePages`): nothing until `more()`
 * is first called with where the first page ended (`waitingNext` / `markedNext`), then a page
 * each call. A mark or a refresh of `feedback.list*` fetches the pages loaded again from where
 * they started; a row both on the first page (moved up) and on a later one is shown once (the
 * page keeps the first). New filters start again with none.
 */
export const useMoreOfHub = (filters: HubFilters, list: 'WAITING' | 'MARKED') =>
  useMorePages('feedback.listMore', { ...filters, list }, (page) => page.nextCursor)
