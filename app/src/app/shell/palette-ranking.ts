//! How the search palette ranks an item for what was typed: by word starts and substrings of
//! the item's words, never by letters scattered through them (cmdk's default fuzzy score
//! lists "Noah Wilson" for "Isla"). A score of 0 hides the item; higher ranks first.

/** Lower case, accents off, so "Zoë" is found by "zoe". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase()
}

function words(text: string): string[] {
  return fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean)
}

/**
 * The score of `texts` (an item's name first, then extra words such as its groups) for
 * `query`: every typed word must start a word of the item or sit inside one.
 * - 1: the name starts with the whole query ("Isla W" for "Isla Ward");
 * - 0.8: every typed word starts a word of the name ("ward" for "Isla Ward");
 * - 0.6: every typed word starts a word of the name or the extra words ("7a");
 * - 0.3: some typed word only sits inside a word ("son" in "Wilson");
 * - 0: a typed word is nowhere (or only as scattered letters).
 */
export function paletteScore(texts: readonly string[], query: string): number {
  const typed = words(query)
  if (typed.length === 0) return 1
  const [name = '', ...extra] = texts
  const nameWords = words(name)
  const allWords = [...nameWords, ...extra.flatMap(words)]
  if (fold(name).trimStart().startsWith(fold(query).trim())) return 1
  const startsIn = (list: string[]) => typed.every((part) => list.some((word) => word.startsWith(part)))
  if (startsIn(nameWords)) return 0.8
  if (startsIn(allWords)) return 0.6
  if (typed.every((part) => allWords.some((word) => word.includes(part)))) return 0.3
  return 0
}

/** cmdk's `filter`: an item's keywords (name, then groups) when it has them, else its value. */
export function paletteFilter(value: string, search: string, keywords?: string[]): number {
  return paletteScore(keywords && keywords.length > 0 ? keywords : [value], search)
}
