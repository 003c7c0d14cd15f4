//! `user.updateEmailPreferences`: which e-mails the user gets, how often, in which language.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { rpcKey, useRpcMutation } from '@/lib/rpc'

export const emailPreferencesSchema = z.object({
  general: z.boolean(),
  assignment: z.boolean(),
  frequency: z.enum(['IMMEDIATELY', 'DAILY', 'WEEKLY']),
  language: z.string(),
})

export function useUpdateEmailPreferences() {
  const queryClient = useQueryClient()
  return useRpcMutation('user.updateEmailPreferences', {
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: rpcKey('user.settings') }),
  })
}
