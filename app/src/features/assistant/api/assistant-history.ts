//! `assistant.history`: the caller's stored questions and answers, newest first, or
//! `enabled: false` when the school has turned the history off.

import { useRpcQuery } from '@/lib/rpc'

export type { AssistantHistory, AssistantHistoryItem } from '@/generated/rpc-types'

export const useAssistantHistory = (enabled = true) => useRpcQuery('assistant.history', undefined, { enabled })
