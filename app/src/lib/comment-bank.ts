//! The comment bank's rules in the browser: `{name}` filled with the pupil's first name
//! (the same rule as core-wasm `comment_bank::fill_name`, kept synchronous here because it
//! runs on every insert), the typed fragment the typeahead searches for, and inserting a
//! chosen comment in its place. Used by `components/comment-bank-field.tsx`.

/** The placeholder a bank comment may carry. */
export const NAME_PLACEHOLDER = '{name}'

/** Fewest letters typed before the typeahead asks (core-wasm `MIN_SEARCH_LETTERS`). */
export const MIN_SEARCH_LETTERS = 3

/** Replaces every `{name}` with `firstName` (trimmed); with no name the placeholder stays. */
export function fillName(text: string, firstName: string | undefined): string {
  const name = firstName?.trim() ?? ''
  if (!name) return text
  return text.split(NAME_PLACEHOLDER).join(name)
}

/** Where a sentence ends: the typed fragment starts after the last of these. */
const BOUNDARY = /[.!?;\n…]/

/**
 * The run of words being typed before the caret: from the last sentence end (or the start)
 * to the caret, without leading spaces. `null` when it has fewer than three letters or
 * digits, or the caret sits just after a space-less boundary (nothing typed yet).
 */
export function typedFragment(value: string, caret: number): { start: number; text: string } | null {
  const before = value.slice(0, caret)
  let start = 0
  for (let i = before.length - 1; i >= 0; i--) {
    if (BOUNDARY.test(before[i])) {
      start = i + 1
      break
    }
  }
  while (start < caret && /\s/.test(value[start])) start++
  const text = value.slice(start, caret)
  const letters = text.match(/[\p{L}\p{N}]/gu)?.length ?? 0
  if (letters < MIN_SEARCH_LETTERS) return null
  return { start, text }
}

/**
 * `value` with the fragment `[start, caret)` replaced by `comment` (its `{name}` filled),
 * and where the caret goes: just after the inserted comment.
 */
export function insertComment(
  value: string,
  start: number,
  caret: number,
  comment: string,
  firstName: string | undefined,
): { value: string; caret: number } {
  const filled = fillName(comment, firstName)
  const after = value.slice(caret)
  const next = value.slice(0, start) + filled + after
  return { value: next, caret: start + filled.length }
}

/** The next active option after a key press in an open list of `count` options (wraps). */
export function moveActive(active: number, count: number, key: 'ArrowDown' | 'ArrowUp'): number {
  if (count === 0) return -1
  if (key === 'ArrowDown') return active + 1 >= count ? 0 : active + 1
  return active <= 0 ? count - 1 : active - 1
}

/** Sentiment names as staff read them. */
export const SENTIMENT_LABELS = { NEUTRAL: 'Neutral', POSITIVE: 'Positive', NEGATIVE: 'Negative' } as const
