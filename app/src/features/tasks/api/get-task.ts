//! `task.get`: one task with its questions, answers, collaborators and the caller's plan.

import { rpcKey, useRpcQuery, type RpcOutput } from '@/lib/rpc'

export type Task = RpcOutput<'task.get'>

export const taskKey = (id: string) => rpcKey('task.get', { id })

export const useTask = (id: string) => useRpcQuery('task.get', { id }, { retry: false })
