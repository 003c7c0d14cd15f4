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
/** Longest template question. */
export const MAX_QUESTION_CHARS = 2000
/** Longest template tag (a task's tags take MAX_GROUP_NAME_CHARS). */
export const MAX_TEMPLATE_TAG_CHARS = 50
/** Longest answer to one question of a task. */
export const MAX_ANSWER_CHARS = 50000
/** Longest report-generator instructions. */
export const MAX_INSTRUCTIONS_CHARS = 4000
/** Longest prompt of a photo analysis. */
export const MAX_PROMPT_CHARS = 4000
/** Longest feedback on a submission. */
export const MAX_FEEDBACK_CHARS = 10000
/** Longest comment on a pupil's profile. */
export const MAX_COMMENT_CHARS = 2000
/** Longest written answer on the public submission page. */
export const MAX_SUBMISSION_CHARS = 20000
/** Longest subject of a message to support. */
export const MAX_SUPPORT_SUBJECT_CHARS = 200
/** Longest message to support. */
export const MAX_SUPPORT_MESSAGE_CHARS = 5000
/** Longest MIS school id (Wonde or Groupcall). */
export const MAX_MIS_ID_CHARS = 64
/** Longest MIS token or secret. */
export const MAX_MIS_SECRET_CHARS = 512
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

/** 'Use at most N characters for each tag.': the message of a per-tag limit. */
export function tagTooLongMessage(max: number): string {
  return `Use at most ${max} characters for each tag.`
}

/** The server's message for a NUL character. */
export const NUL_MESSAGE = "Must not contain a NUL character."
