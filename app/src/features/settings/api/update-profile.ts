//! `user.updateProfile`: the name form's schema and the mutation (the session shows the name,
//! so it is refreshed too).

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { MAX_PERSON_NAME_CHARS } from '@/generated/limits'
import { requiredText } from '@/lib/form-limits'
import { rpcKey, useRpcMutation } from '@/lib/rpc'
import { SESSION_KEY } from '@/lib/session'

export const profileSchema = z.object({
  forename: requiredText('Enter your forename.', MAX_PERSON_NAME_CHARS),
  surname: requiredText('Enter your surname.', MAX_PERSON_NAME_CHARS),
})

export type ProfileValues = z.infer<typeof profileSchema>

export function useUpdateProfile() {
  const queryClient = useQueryClient()
  return useRpcMutation('user.updateProfile', {
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: rpcKey('user.settings') })
      void queryClient.invalidateQueries({ queryKey: SESSION_KEY })
    },
  })
}
