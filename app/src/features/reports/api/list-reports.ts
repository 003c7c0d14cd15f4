//! `report.list`: the caller's saved reports, most recently changed first.

import { useRpcQuery, type RpcOutput } from '@/lib/rpc'

export type SavedReport = RpcOutput<'report.list'>[number]

export const useReports = () => useRpcQuery('report.list')
