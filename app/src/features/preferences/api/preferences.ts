//! `preferences.get` and `preferences.update`: the public e-mail preferences behind a link's token.

import { useMutation, useQueryClient } from '@tanstack/react-query'

import type { RpcInput } from '@/generated/rpc-types'
import { rpcKey, rpcMutation, useRpcQuery } from '@/lib/rpc'

export type PreferencesUpdate = RpcInput<'preferences.update'>

/** The preferences of the address `token` was sent to. */
export function usePreferences(token: string) {
  return useRpcQuery('preferences.get', { token }, { retry: false })
}

/** Saves the preferences, then shows the saved values. */
export function useUpdatePreferences() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: PreferencesUpdate) => rpcMutation('preferences.update', input),
    onSuccess: (saved, input) => {
      queryClient.setQueryData(rpcKey('preferences.get', { token: input.token }), saved)
    },
  })
}
