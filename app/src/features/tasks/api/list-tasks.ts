//! `task.list`: the caller's tasks and those shared with them, newest change first, 50 a
//! page (`useRpcPages`, "Show more tasks"); each page also carries every tag they use.

import { useRpcPages, type RpcInput } from '@/lib/rpc'

export type TaskFilters = Omit<NonNullable<RpcInput<'task.list'>>, 'cursor'>

export const useTasks = (filters: TaskFilters) => useRpcPages('task.list', filters, (page) => page.nextCursor)
