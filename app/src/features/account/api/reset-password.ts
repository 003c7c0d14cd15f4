//! `account.resetPassword`: the form's schema (both passwords given and equal) and the mutation.

import { z } from 'zod'

import { useRpcMutation } from '@/lib/rpc'

export const resetPasswordSchema = z
  .object({
    password: z.string().min(1, 'Enter a new password.'),
    confirm: z.string().min(1, 'Enter the password again.'),
  })
  .refine((values) => values.password === values.confirm, {
    message: 'The passwords do not match.',
    path: ['confirm'],
  })

export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>

export const useResetPassword = () => useRpcMutation('account.resetPassword')
