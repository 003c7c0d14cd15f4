//! `task.templateChoices`: the templates the user may start a task from.

import { useRpcQuery } from '@/lib/rpc'

export const useTemplateChoices = () => useRpcQuery('task.templateChoices', undefined)
