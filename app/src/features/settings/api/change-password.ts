//! `user.changePassword`: the form's schema (all three given, the new one twice alike) and the
//! mutation. The password rule itself is the core's, checked on submit.

import { z } from 'zod'

import { useRpcMutation } from '@/lib/rpc'

export const changePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'Enter your current password.'),
    newPassword: z.string().min(1, 'Enter a new password.'),
    confirm: z.string().min(1, 'Enter the new password again.'),
  })
  .refine((values) => values.newPassword === values.confirm, {
    message: 'The passwords do not match.',
    path: ['confirm'],
  })

export type ChangePasswordValues = z.infer<typeof changePasswordSchema>

export const useChangePassword = () => useRpcMutation('user.changePassword')
