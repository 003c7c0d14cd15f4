//! `report.list`: the caller's saved reports, most recently changed first, 20 a page
//! (`useRpcPages`, "Show more reports").

import { useRpcPages, type RpcOutput } from '@/lib/rpc'

export type SavedReport = RpcOutput<'report.list'>['reports'][number]

export const useReports = () => useRpcPages('report.list', {}, (page) => page.nextCursor)
