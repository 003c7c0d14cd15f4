//! `preferences.update`: the form's schema and the mutation, which then shows the saved values.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { rpcKey, useRpcMutation } from '@/lib/rpc'

export const preferencesSchema = z.object({
  general: z.boolean(),
  assignment: z.boolean(),
  frequency: z.enum(['IMMEDIATELY', 'DAILY', 'WEEKLY']),
  language: z.string(),
})

export type PreferencesValues = z.infer<typeof preferencesSchema>

export function useUpdatePreferences() {
  const queryClient = useQueryClient()
  return useRpcMutation('preferences.update', {
    onSuccess: (saved, input) => {
      queryClient.setQueryData(rpcKey('preferences.get', { token: input.token }), saved)
    },
  })
}
