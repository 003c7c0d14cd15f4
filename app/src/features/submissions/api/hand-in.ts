//! `submission.submit`: the pupil hands in (again, until marked); the answer replaces the view.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { MAX_SUBMISSION_CHARS } from '@/generated/limits'
import { optionalText } from '@/lib/form-limits'
import { rpcKey, useRpcMutation } from '@/lib/rpc'

export const handInSchema = z.object({ content: optionalText(MAX_SUBMISSION_CHARS) })

export type HandInValues = z.infer<typeof handInSchema>

export function useHandIn(id: string, token: string) {
  const queryClient = useQueryClient()
  return useRpcMutation('submission.submit', {
    onSuccess: (view) => queryClient.setQueryData(rpcKey('submission.public', { id, token }), view),
  })
}
