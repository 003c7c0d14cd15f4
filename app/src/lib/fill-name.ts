//! `{name}` in a comment (the comment bank, bulk feedback): the pupil's first name.

/** `text` with every `{name}` replaced by `forename` (trimmed; `{name}` kept when there is none). */
export function fillName(text: string, forename: string): string {
  const name = forename.trim()
  return name ? text.replaceAll('{name}', name) : text
}
