//! The server's field errors on a react-hook-form form: a tRPC BAD_REQUEST answer carries
//! zod's flattened `fieldErrors` (see `rpc.ts`); each message goes onto its field with
//! `setError`, so it shows under the control with `aria-invalid`. One helper for every form.

import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'

import { errorMessage, fieldErrors } from './rpc'

/**
 * Puts the first server message of each of `fields` on that field. `rename` maps a server
 * field to the form's name when they differ. Returns whether any message was placed, so the
 * caller can say something general when none was.
 */
export function setServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  rename: Partial<Record<string, Path<T>>> = {},
): boolean {
  const messages = fieldErrors(error)
  let shown = false
  for (const [serverField, message] of Object.entries(messages)) {
    const field = rename[serverField] ?? (serverField as Path<T>)
    if (!fields.includes(field)) continue
    setError(field, { message }, { shouldFocus: !shown })
    shown = true
  }
  return shown
}

/** The toast for a failure no field explains. */
export function failureToast(error: unknown): { title: string; description: string; tone: 'error' } {
  return { title: 'Something went wrong', description: errorMessage(error), tone: 'error' }
}
