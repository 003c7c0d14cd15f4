//! Form fields the server length-checks, as zod schemas: the same limit (from
//! `generated/limits.ts`, written from core-wasm) and the same message ("Use at most N
//! characters.") as the server, so a form refuses a too-long value before it sends it.
//! Counting is the server's: code points of the trimmed value. With `zodResolver` every
//! field's message shows at once when the form is submitted.

import { z } from 'zod'

import { fitsChars, tagTooLongMessage, tooLongMessage } from '@/generated/limits'

/** A text that must not be blank (`emptyMessage`) and has at most `max` characters. */
export function requiredText(emptyMessage: string, max: number) {
  return z
    .string()
    .refine((value) => value.trim().length > 0, emptyMessage)
    .refine((value) => fitsChars(value, max), tooLongMessage(max))
}

/** A text that may be blank and has at most `max` characters. */
export function optionalText(max: number) {
  return z.string().refine((value) => fitsChars(value, max), tooLongMessage(max))
}

/** The tags of a comma-separated field, trimmed, blanks dropped. */
export function splitTags(value: string): string[] {
  return value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean)
}

/** A comma-separated tags field: at most `maxTags` tags of at most `maxChars` characters each. */
export function tagsText(maxTags: number, maxChars: number) {
  return z
    .string()
    .refine((value) => splitTags(value).length <= maxTags, `Use at most ${maxTags} tags.`)
    .refine((value) => splitTags(value).every((tag) => fitsChars(tag, maxChars)), tagTooLongMessage(maxChars))
}

/** Whether `message` reads as one of the product's field messages: a sentence with a full stop. */
export function isSentence(message: string): boolean {
  return /^[A-Z0-9'‘“].*[.!?]$/su.test(message.trim())
}
