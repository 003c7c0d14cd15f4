//! The edit page's bookkeeping, kept pure so it is tested on its own: which answers changed
//! since the last known server text (only those are sent, each over its version), and how
//! a save's answer merges in without ever replacing what the user is typing.

export interface Saved {
  /** The answer as the server last told us. */
  text: string
  /** Its version: the base of the next save (0: no answer yet). */
  version: number
}

export type SavedAnswers = Record<string, Saved>

export interface ServerAnswer {
  questionId: string
  answer: string
  version: number
}

/** Tags typed as "a, b, c": trimmed, no blanks, no repeats (any case). */
export function parseTags(text: string): string[] {
  const out: string[] = []
  for (const raw of text.split(',')) {
    const tag = raw.trim()
    if (tag && !out.some((t) => t.toLowerCase() === tag.toLowerCase())) out.push(tag)
  }
  return out
}

export function formatTags(tags: readonly string[]): string {
  return tags.join(', ')
}

/** The server's answers keyed by question. */
export function savedFrom(answers: readonly ServerAnswer[]): SavedAnswers {
  return Object.fromEntries(answers.map((a) => [a.questionId, { text: a.answer, version: a.version }]))
}

/** The answers whose text differs from the last known server text, over their versions. */
export function changedAnswers(
  questionIds: readonly string[],
  texts: readonly string[],
  saved: SavedAnswers,
): { questionId: string; answer: string; baseVersion: number }[] {
  return questionIds.flatMap((questionId, index) => {
    const text = texts[index] ?? ''
    const known = saved[questionId]
    if (text === (known?.text ?? '')) return []
    return [{ questionId, answer: text, baseVersion: known?.version ?? 0 }]
  })
}

/**
 * After a save: the new server state, and the fields to refresh — only those the user had
 * not changed (their text equals the last known server text) and that someone else has
 * changed meanwhile. Conflicted answers keep the old base until the user chooses.
 */
export function mergeSaved(
  questionIds: readonly string[],
  texts: readonly string[],
  saved: SavedAnswers,
  answers: readonly ServerAnswer[],
  conflicted: readonly string[],
): { saved: SavedAnswers; refresh: { index: number; text: string }[] } {
  const next: SavedAnswers = { ...saved }
  const refresh: { index: number; text: string }[] = []
  for (const answer of answers) {
    if (conflicted.includes(answer.questionId)) continue
    const index = questionIds.indexOf(answer.questionId)
    const before = saved[answer.questionId]?.text ?? ''
    const current = index >= 0 ? (texts[index] ?? '') : ''
    next[answer.questionId] = { text: answer.answer, version: answer.version }
    if (index >= 0 && current === before && current !== answer.answer) refresh.push({ index, text: answer.answer })
  }
  return { saved: next, refresh }
}
