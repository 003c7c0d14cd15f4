//! `template.list`: the templates the user may see, searched by title or tag, filtered by
//! visibility; archived ones only when asked.

import { useRpcQuery, type RpcInput } from '@/lib/rpc'

export type ListTemplatesInput = RpcInput<'template.list'>

export const useTemplates = (input: ListTemplatesInput) =>
  useRpcQuery('template.list', input, { placeholderData: (previous) => previous })
