//! `account.requestPasswordReset`: the form's schema and the mutation.

import { z } from 'zod'

import { useRpcMutation } from '@/lib/rpc'
import { MAX_EMAIL_CHARS } from '@/generated/limits'
import { requiredText } from '@/lib/form-limits'

export const requestPasswordResetSchema = z.object({
  email: requiredText('Enter your e-mail address.', MAX_EMAIL_CHARS),
})

export type RequestPasswordResetValues = z.infer<typeof requestPasswordResetSchema>

export const useRequestPasswordReset = () => useRpcMutation('account.requestPasswordReset')
