//! `account.requestPasswordReset`: the form's schema and the mutation.

import { z } from 'zod'

import { useRpcMutation } from '@/lib/rpc'

export const requestPasswordResetSchema = z.object({
  email: z.string().min(1, 'Enter your e-mail address.'),
})

export type RequestPasswordResetValues = z.infer<typeof requestPasswordResetSchema>

export const useRequestPasswordReset = () => useRpcMutation('account.requestPasswordReset')
