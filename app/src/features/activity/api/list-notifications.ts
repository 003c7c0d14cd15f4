//! `notification.list`: a page of the notifications the caller may see, searched by title,
//! starting at `cursor` (the `nextCursor` of the page before; null for the newest).

import { useRpcQuery } from '@/lib/rpc'

export const useActivity = (search: string, cursor: string | null) =>
  useRpcQuery(
    'notification.list',
    { search: search.trim() || null, cursor, pageSize: null },
    { placeholderData: (previous) => previous },
  )
