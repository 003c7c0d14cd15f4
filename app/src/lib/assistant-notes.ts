//! Turning the AI's answer into what the teacher uses: plain bullet notes ('Convert to
//! notes'), HTML for the message editor, and the draft handed to
//! /notifications/create?assistant=1 through sessionStorage: the photo analyser's text
//! ('Create message') or the AI assistant's drafted message ('Open in editor').

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

type ReadStorage = Pick<Storage, 'getItem'>
type WriteStorage = Pick<Storage, 'setItem'>

/** A pupil the AI assistant's draft is addressed to (or about). */
export interface DraftPupil {
  id: string
  name: string
}

/** A message or assignment the AI assistant drafted, for the teacher to check and send. */
export interface AssistantMessageDraft {
  type: 'GENERAL' | 'ASSIGNMENT'
  title: string
  /** Plain text, paragraphs separated by blank lines. */
  body: string
  students: DraftPupil[]
  sendToPupil: boolean
  sendToParent: boolean
}

/** What the editor at /notifications/create?assistant=1 starts with. */
export interface EditorDraft {
  title?: string
  /** The message as the editor's HTML. */
  bodyHtml: string
  /** Pupils to select in the audience picker (none for a photo analysis). */
  students: DraftPupil[]
  sendToPupil?: boolean
  sendToParent?: boolean
}

/** The photo analyser's text, kept for the editor that /notifications/create?assistant=1 opens. */
export function saveAssistantDraft(text: string, storage: WriteStorage = sessionStorage): void {
  storage.setItem(DRAFT_KEY, text)
}

/**
 * The AI assistant's draft, kept under the same key as JSON (`v: 2`), so the editor opened
 * next reads whichever came last.
 */
export function saveAssistantMessageDraft(draft: AssistantMessageDraft, storage: WriteStorage = sessionStorage): void {
  const { type, title, body, students, sendToPupil, sendToParent } = draft
  storage.setItem(
    DRAFT_KEY,
    JSON.stringify({ v: 2, type, title, body, students: students.map(({ id, name }) => ({ id, name })), sendToPupil, sendToParent }),
  )
}

/** The stored text as a structured draft, when it is one (a photo analysis may start with '{' too). */
function structured(text: string): AssistantMessageDraft | null {
  if (!text.trimStart().startsWith('{')) return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return null
  }
  if (!value || typeof value !== 'object') return null
  const draft = value as Record<string, unknown>
  if (draft.v !== 2 || typeof draft.body !== 'string') return null
  const students = Array.isArray(draft.students)
    ? draft.students.flatMap((pupil: unknown) => {
        const { id, name } = (pupil ?? {}) as Record<string, unknown>
        return typeof id === 'string' && id ? [{ id, name: typeof name === 'string' ? name : '' }] : []
      })
    : []
  return {
    type: draft.type === 'ASSIGNMENT' ? 'ASSIGNMENT' : 'GENERAL',
    title: typeof draft.title === 'string' ? draft.title : '',
    body: draft.body,
    students,
    sendToPupil: draft.sendToPupil === true,
    sendToParent: draft.sendToParent === true,
  }
}

/**
 * The kept draft as the editor starts it (`null` when there is none): the assistant's title,
 * message, pupils and audience, or the photo analyser's text as the message alone. Read, not
 * removed, so a re-render or React's double effects in development still find it; the next
 * draft overwrites it.
 */
export function readAssistantDraft(storage: ReadStorage = sessionStorage): EditorDraft | null {
  const text = storage.getItem(DRAFT_KEY)
  if (!text) return null
  const draft = structured(text)
  if (!draft) return { bodyHtml: textToHtml(text), students: [] }
  return {
    title: draft.title || undefined,
    bodyHtml: textToHtml(draft.body),
    students: draft.students,
    sendToPupil: draft.sendToPupil,
    sendToParent: draft.sendToParent,
  }
}
