//! The voice-note forms' filename check, on submit: the core's rule (core-wasm/src/filename.rs,
//! the one the server applies), so the texts are the same ('Filename is required', ...).
//! Awaited in the submit handler, never on every keystroke. If the core cannot answer, the
//! name goes to the server, which applies the same rule and answers a field error.

import { getCore } from '@/lib/core'

/** The filename rule's message for `filename`, or `undefined` when it may be sent. */
export async function filenameProblem(filename: string): Promise<string | undefined> {
  return getCore()
    .filenameError(filename)
    .catch(() => undefined)
}
