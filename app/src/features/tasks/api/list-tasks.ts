//! `task.list`: the caller's tasks and those shared with them, newest change first.

import { keepPreviousData } from '@tanstack/react-query'

import { useRpcQuery, type RpcInput } from '@/lib/rpc'

export type TaskFilters = RpcInput<'task.list'>

export const useTasks = (filters: TaskFilters) =>
  useRpcQuery('task.list', filters, { placeholderData: keepPreviousData })
