//! Turning the AI's answer into what the teacher uses: plain bullet notes ('Convert to
//! notes'), HTML for the message editor, and the draft handed to
//! /notifications/create?assistant=1 ('Create message') through sessionStorage.

const BULLET = '• '

/**
 * Plain bullet notes from the AI's text: one bullet per sentence, paragraphs and existing
 * list items kept apart, list markers ("-", "*", "•", "1.") dropped. Plain text, so the
 * teacher can edit it in any field and copy it anywhere.
 */
export function toNotes(text: string): string {
  const notes: string[] = []
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim()
    if (!line) continue
    // A sentence ends at . ! or ? followed by a space and a capital, digit or quote.
    for (const sentence of line.split(/(?<=[.!?])\s+(?=["'(\p{Lu}\d])/u)) {
      const note = sentence.trim()
      if (note) notes.push(BULLET + note)
    }
  }
  return notes.join('\n')
}

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}

/** The text as the message editor's HTML: bullet lines become a list, other lines paragraphs. */
export function textToHtml(text: string): string {
  const html: string[] = []
  let items: string[] = []
  const flush = () => {
    if (items.length) html.push(`<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`)
    items = []
  }
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim()
    const bullet = /^(?:[-*•])\s+(.*)$/.exec(line)
    if (bullet) {
      items.push(escapeHtml(bullet[1]))
      continue
    }
    flush()
    if (line) html.push(`<p>${escapeHtml(line)}</p>`)
  }
  flush()
  return html.join('')
}

const DRAFT_KEY = 'voicemark.assistant-draft'

/** Keeps `text` for the editor that /notifications/create?assistant=1 opens. */
export function saveAssistantDraft(text: string, storage: Pick<Storage, 'setItem'> = sessionStorage): void {
  storage.setItem(DRAFT_KEY, text)
}

/** The draft as editor HTML ('' when there is none). Read, not removed, so a re-render or
 *  React's double effects in development still find it; the next analysis overwrites it. */
export function assistantDraftHtml(storage: Pick<Storage, 'getItem'> = sessionStorage): string {
  const text = storage.getItem(DRAFT_KEY)
  return text ? textToHtml(text) : ''
}
