//! `admin.listStaff`: a page (50) of the school's staff, searched by name or e-mail, starting
//! at `cursor` (the `nextCursor` of the page before; null for the first).

import { useRpcQuery } from '@/lib/rpc'

export const useStaff = (search: string, cursor: string | null) =>
  useRpcQuery('admin.listStaff', { search: search.trim() || null, cursor }, { placeholderData: (previous) => previous })
