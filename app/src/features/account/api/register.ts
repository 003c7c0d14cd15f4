//! `account.register`: the form's schema and the mutation. (The password rule itself is the
//! core's, checked on submit; the server checks it again.)

import { z } from 'zod'

import {
  fitsChars,
  MAX_EMAIL_CHARS,
  MAX_ORGANISATION_NAME_CHARS,
  MAX_PERSON_NAME_CHARS,
  tooLongMessage,
} from '@/generated/limits'
import { useRpcMutation } from '@/lib/rpc'

export const registerSchema = z.object({
  forename: z.string().min(1, 'Enter your forename.').refine((v) => fitsChars(v, MAX_PERSON_NAME_CHARS), tooLongMessage(MAX_PERSON_NAME_CHARS)),
  surname: z.string().min(1, 'Enter your surname.').refine((v) => fitsChars(v, MAX_PERSON_NAME_CHARS), tooLongMessage(MAX_PERSON_NAME_CHARS)),
  email: z.string().min(1, 'Enter your e-mail address.').refine((v) => fitsChars(v, MAX_EMAIL_CHARS), tooLongMessage(MAX_EMAIL_CHARS)),
  password: z.string().min(1, 'Enter a password.'),
  organisationName: z
    .string()
    .trim()
    .min(1, "Enter your school or organisation's name.")
    .refine((v) => fitsChars(v, MAX_ORGANISATION_NAME_CHARS), tooLongMessage(MAX_ORGANISATION_NAME_CHARS)),
  postcode: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 ]{2,12}$/, 'Enter a valid postcode.'),
  orgType: z.enum(['SCHOOL', 'BUSINESS'], { message: 'Choose School or Business.' }),
})

export type RegisterValues = z.infer<typeof registerSchema>

export const useRegister = () => useRpcMutation('account.register')
