//! `system.features`: whether a chat model is configured (`chat`), without which the assistant
//! cannot answer. It changes only with the server's configuration.

import { useRpcQuery } from '@/lib/rpc'

export const useAssistantFeatures = (enabled = true) =>
  useRpcQuery('system.features', undefined, { staleTime: 60_000, enabled })
