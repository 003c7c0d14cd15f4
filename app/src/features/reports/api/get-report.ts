//! `report.get`: one saved report, whole, to open it in the form again.

import { rpcQuery, type RpcOutput } from '@/lib/rpc'

export type ReportDetail = RpcOutput<'report.get'>

export const fetchReport = (id: string) => rpcQuery('report.get', { id })
