//! `admin.listPupils`: a page of the school's pupils, searched by name.

import { useRpcQuery } from '@/lib/rpc'

export const usePupils = (search: string, page: number) =>
  useRpcQuery('admin.listPupils', { search: search.trim() || null, page }, { placeholderData: (previous) => previous })
