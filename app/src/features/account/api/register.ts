//! `account.register`: the form's schema and the mutation. (The password rule itself is the
//! core's, checked on submit; the server checks it again.)

import { z } from 'zod'

import { useRpcMutation } from '@/lib/rpc'

export const registerSchema = z.object({
  forename: z.string().min(1, 'Enter your forename.'),
  surname: z.string().min(1, 'Enter your surname.'),
  email: z.string().min(1, 'Enter your e-mail address.'),
  password: z.string().min(1, 'Enter a password.'),
})

export type RegisterValues = z.infer<typeof registerSchema>

export const useRegister = () => useRpcMutation('account.register')
