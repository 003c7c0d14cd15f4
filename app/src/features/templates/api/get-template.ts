//! `template.get`: one template with its questions in order.

import { useRpcQuery } from '@/lib/rpc'

export const useTemplate = (id: string) => useRpcQuery('template.get', { id })
