//! `notification.list`: a page of the notifications the caller may see, searched by title.

import { useRpcQuery } from '@/lib/rpc'

export const useActivity = (search: string, page: number) =>
  useRpcQuery('notification.list', { search: search.trim() || null, page, pageSize: null }, { placeholderData: (previous) => previous })
