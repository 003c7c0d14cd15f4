//! `POST /api/assistant`: the AI assistant answers a question, streamed as Server-Sent Events
//! (tRPC does not stream): `status` {text} while a tool runs, `text` {delta} as the answer
//! grows, `draft` {type, title, body, students, sendToPupil, sendToParent} for a message it
//! drafted (never sent), then `done` {id, answer, conversation} or `error` {message}. A
//! refusal before the stream is a JSON `{error}` with status 400, 401, 403 or 412. Aborting
//! the signal closes the connection, which stops the model.

import type { AssistantMessageDraft, DraftPupil } from '@/lib/assistant-notes'
import { notSwitchedOn } from '@/lib/features'
import { eventJson, readEventStream } from '@/lib/sse'

/** The longest question the server accepts (the form's limit too). */
export const MAX_QUESTION_CHARS = 2000

export interface AssistantRequest {
  question: string
  /** The page the question was asked on (its pathname). */
  context: string
  /** The previous `done` event's `conversation`, unchanged; empty for a new conversation. */
  conversation: unknown[]
}

export type AssistantEvent =
  | { type: 'status'; text: string }
  | { type: 'text'; delta: string }
  | { type: 'draft'; draft: AssistantMessageDraft }
  | { type: 'done'; id: string | null; answer: string; conversation: unknown[] }
  | { type: 'error'; message: string }

/** Shown when the server has no chat model (system.features or a 412 without a sentence). */
export const NOT_CONFIGURED = notSwitchedOn('assistant')

const LOST = 'The connection to the server was lost before the answer was finished. Please try again.'

function pupils(value: unknown): DraftPupil[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((pupil: unknown) => {
    const { id, name } = (pupil ?? {}) as Record<string, unknown>
    return typeof id === 'string' && id ? [{ id, name: typeof name === 'string' ? name : '' }] : []
  })
}

/** One event of the stream as the panel reads it (`null` for an unknown or unreadable one). */
export function toAssistantEvent(event: string, data: string): AssistantEvent | null {
  const json = eventJson(data)
  if (!json) return null
  switch (event) {
    case 'status':
      return typeof json.text === 'string' ? { type: 'status', text: json.text } : null
    case 'text':
      return typeof json.delta === 'string' ? { type: 'text', delta: json.delta } : null
    case 'draft':
      return {
        type: 'draft',
        draft: {
          type: json.type === 'ASSIGNMENT' ? 'ASSIGNMENT' : 'GENERAL',
          title: typeof json.title === 'string' ? json.title : '',
          body: typeof json.body === 'string' ? json.body : '',
          students: pupils(json.students),
          sendToPupil: json.sendToPupil === true,
          sendToParent: json.sendToParent === true,
        },
      }
    case 'done':
      return {
        type: 'done',
        id: typeof json.id === 'string' ? json.id : null,
        answer: typeof json.answer === 'string' ? json.answer : '',
        conversation: Array.isArray(json.conversation) ? (json.conversation as unknown[]) : [],
      }
    case 'error':
      return {
        type: 'error',
        message: typeof json.message === 'string' && json.message ? json.message : 'The assistant could not answer. Please try again.',
      }
    default:
      return null
  }
}

/** What a refusal before the stream says: the server's sentence, or one by status. */
async function refusal(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown }
    if (typeof body.error === 'string' && body.error) return body.error
  } catch {
    // not JSON: fall through
  }
  switch (response.status) {
    case 400:
      return `Ask a question of at most ${MAX_QUESTION_CHARS} characters.`
    case 401:
      return 'Your session has ended. Sign in again to use the AI assistant.'
    case 403:
      return 'You do not have access to the AI assistant.'
    case 412:
      return NOT_CONFIGURED
    default:
      return `The AI assistant failed (HTTP ${response.status}). Please try again.`
  }
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError'

/**
 * Asks the assistant, calling `onEvent` for each event as it arrives. Resolves when the stream
 * ends with `done` or `error`; rejects with a user-readable Error when the server refuses,
 * cannot be reached or the stream breaks off (an abort through `signal` rejects with an
 * `AbortError`).
 */
export async function askAssistant(
  request: AssistantRequest,
  onEvent: (event: AssistantEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  let response: Response
  try {
    response = await fetch('/api/assistant', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(request),
      signal,
    })
  } catch (error) {
    if (isAbort(error)) throw error
    throw new Error('The server could not be reached. Check your connection and try again.')
  }
  if (!response.ok || !response.body) throw new Error(await refusal(response))
  let ended = false
  try {
    await readEventStream(response.body, ({ event, data }) => {
      const parsed = toAssistantEvent(event, data)
      if (!parsed) return
      if (parsed.type === 'done' || parsed.type === 'error') ended = true
      onEvent(parsed)
    })
  } catch (error) {
    // A connection dropped after the last event loses nothing.
    if (ended) return
    if (isAbort(error)) throw error
    throw new Error(LOST)
  }
  if (!ended) throw new Error(LOST)
}
