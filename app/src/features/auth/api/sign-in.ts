//! The sign-in form's schema. (Sign-in itself is Auth.js's REST endpoints, `lib/auth-client.ts`,
//! not an RPC call.)

import { z } from 'zod'

export const signInSchema = z.object({
  email: z.string().min(1, 'Enter your e-mail address.'),
  password: z.string().min(1, 'Enter your password.'),
})

export type SignInValues = z.infer<typeof signInSchema>
