//! `admin.listPupils`: a page of the school's pupils, searched by name, starting at `cursor`
//! (the `nextCursor` of the page before; null for the first).

import { useRpcQuery } from '@/lib/rpc'

export const usePupils = (search: string, cursor: string | null) =>
  useRpcQuery('admin.listPupils', { search: search.trim() || null, cursor }, { placeholderData: (previous) => previous })
