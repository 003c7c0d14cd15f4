//! `ai.formatAnswer`: the chat model tidies one answer; `{text}` back, nothing saved.

import { useRpcMutation } from '@/lib/rpc'

export const useFormatAnswer = () => useRpcMutation('ai.formatAnswer')
