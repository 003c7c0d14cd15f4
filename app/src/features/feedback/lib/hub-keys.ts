//! The Feedback Hub's keys (issue 28): J / K (and the arrow keys in the list) move between
//! submissions, 1 2 3 choose the sentiment, Ctrl+Enter (⌘+Enter on a Mac) marks and moves on,
//! D dictates into the feedback, ? lists the keys. Only Ctrl/⌘+Enter works while typing.

export type HubKeyAction = 'next' | 'previous' | 'neutral' | 'positive' | 'negative' | 'mark' | 'dictate' | 'help'

/** The keys as the '?' dialog lists them, in order. */
export const HUB_KEYS: { keys: string[]; what: string }[] = [
  { keys: ['J', '↓'], what: 'Next submission' },
  { keys: ['K', '↑'], what: 'Previous submission' },
  { keys: ['Enter'], what: 'Write feedback for the chosen submission' },
  { keys: ['Esc'], what: 'Leave the feedback box' },
  { keys: ['1'], what: 'Neutral' },
  { keys: ['2'], what: 'Positive' },
  { keys: ['3'], what: 'Negative' },
  { keys: ['Ctrl', 'Enter'], what: 'Mark and go to the next submission (⌘ Enter on a Mac)' },
  { keys: ['D'], what: 'Dictate your feedback' },
  { keys: ['?'], what: 'Show these keys' },
]

/** The fields a key is typed into: their keys are the user's text, not the Hub's. */
const TEXT_INPUTS = new Set([
  'text',
  'search',
  'email',
  'number',
  'password',
  'url',
  'tel',
  'date',
  'datetime-local',
  'time',
  'month',
  'week',
])

/** Whether `target` takes typed text (a text field, a text area, a select, an editable region). */
export function isTyping(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== 'string') return false
  const element = target as HTMLElement
  const tag = element.tagName.toLowerCase()
  if (tag === 'textarea' || tag === 'select') return true
  if (tag === 'input') return TEXT_INPUTS.has(((element as HTMLInputElement).type || 'text').toLowerCase())
  return element.isContentEditable === true
}

export interface KeyLike {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  target: EventTarget | null
}

/**
 * What a key press means in the Hub, or `null` when it is not the Hub's (typing, another
 * modifier, another key). `inList`: focus is in the list of submissions (the arrow keys move
 * there only, so they keep scrolling the page elsewhere).
 */
export function hubKeyAction(event: KeyLike, inList: boolean): HubKeyAction | null {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey) return 'mark'
  if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return null
  switch (event.key) {
    case 'j':
    case 'J':
      return 'next'
    case 'k':
    case 'K':
      return 'previous'
    case 'ArrowDown':
      return inList ? 'next' : null
    case 'ArrowUp':
      return inList ? 'previous' : null
    case '1':
      return 'neutral'
    case '2':
      return 'positive'
    case '3':
      return 'negative'
    case 'd':
    case 'D':
      return 'dictate'
    case '?':
      return 'help'
    default:
      return null
  }
}

/** The id after (or before) `current` in `ids`, staying at the ends; the first when none is current. */
export function step(ids: string[], current: string | undefined, by: 1 | -1): string | undefined {
  if (ids.length === 0) return undefined
  const at = current ? ids.indexOf(current) : -1
  if (at < 0) return ids[0]
  return ids[Math.min(ids.length - 1, Math.max(0, at + by))]
}

/** Ids from `anchor` to `to` in list order, both included (a Shift-click range). */
export function range(ids: string[], anchor: string, to: string): string[] {
  const a = ids.indexOf(anchor)
  const b = ids.indexOf(to)
  if (a < 0 || b < 0) return [to]
  return ids.slice(Math.min(a, b), Math.max(a, b) + 1)
}
