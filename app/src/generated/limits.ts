// Generated from core-wasm/src/limits.rs by `cargo test -p voicemark-server --test it -- --ignored write_limits`.
// Do not edit: change the core and regenerate.

/** Longest text of any input field. */
export const MAX_TEXT_CHARS = 200000
/** Most items in any input list. */
export const MAX_LIST_ITEMS = 10000
/** Most calls in one tRPC batch (`maxItems`). */
export const MAX_BATCH_CALLS = 50
/** Longest forename or surname. */
export const MAX_PERSON_NAME_CHARS = 100
/** Longest UPN (an English UPN has 13). */
export const MAX_UPN_CHARS = 20
/** Longest e-mail address. */
export const MAX_EMAIL_CHARS = 254
/** Longest class, form or year group name. */
export const MAX_GROUP_NAME_CHARS = 100
/** Longest notification title. */
export const MAX_TITLE_CHARS = 200
/** Longest organisation name. */
export const MAX_ORGANISATION_NAME_CHARS = 200
/** Deepest nesting of an input. */
export const MAX_INPUT_DEPTH = 16

/** 'Use at most N characters.': the server's message for every length limit. */
export function tooLongMessage(max: number): string {
  return `Use at most ${max} characters.`
}

/** Whether `value`, trimmed as the server trims it, has at most `max` characters (code points, as Rust counts). */
export function fitsChars(value: string, max: number): boolean {
  return [...value.trim()].length <= max
}

/** The server's message for a NUL character. */
export const NUL_MESSAGE = "Must not contain a NUL character."
