//! `support.contact`: the contact form's schema and the mutation. The limits are the
//! server's (`rpc/support/contact.rs`), which answers the same messages per field.

import { z } from 'zod'

import { MAX_SUPPORT_MESSAGE_CHARS, MAX_SUPPORT_SUBJECT_CHARS } from '@/generated/limits'
import { requiredText } from '@/lib/form-limits'
import { useRpcMutation } from '@/lib/rpc'

export const MAX_SUBJECT = MAX_SUPPORT_SUBJECT_CHARS
export const MAX_MESSAGE = MAX_SUPPORT_MESSAGE_CHARS

export const contactSchema = z.object({
  subject: requiredText('Enter a subject.', MAX_SUBJECT),
  message: requiredText('Write your message.', MAX_MESSAGE),
})

export type ContactValues = z.infer<typeof contactSchema>

export const useContactSupport = () => useRpcMutation('support.contact')
