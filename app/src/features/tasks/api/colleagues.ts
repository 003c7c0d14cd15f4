//! `task.colleagues`: whom the owner may share a task with (Pro only asks).

import { useRpcQuery } from '@/lib/rpc'

export const useColleagues = (id: string, enabled: boolean) =>
  useRpcQuery('task.colleagues', { id }, { enabled, retry: false })
