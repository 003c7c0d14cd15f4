//! `support.contact`: the contact form's schema and the mutation. The limits are the
//! server's (`rpc/support/contact.rs`), which answers the same messages per field.

import { z } from 'zod'

import { useRpcMutation } from '@/lib/rpc'

export const MAX_SUBJECT = 200
export const MAX_MESSAGE = 5000

export const contactSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, 'Enter a subject.')
    .max(MAX_SUBJECT, `The subject must be at most ${MAX_SUBJECT} characters.`),
  message: z
    .string()
    .trim()
    .min(1, 'Write your message.')
    .max(MAX_MESSAGE, `The message must be at most ${MAX_MESSAGE} characters.`),
})

export type ContactValues = z.infer<typeof contactSchema>

export const useContactSupport = () => useRpcMutation('support.contact')
