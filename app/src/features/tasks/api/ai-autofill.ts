//! `POST /api/tasks/{id}/autofill`: the chat model fills the task's answers, streamed as
//! Server-Sent Events (tRPC does not stream): `answer` {questionId, text, complete} as each
//! answer grows (the whole text so far), then `done` {answers, truncated} or `error`
//! {message}. A refusal before the stream is a JSON `{error}` with its status. Aborting the
//! signal closes the connection, which stops the model.

import { eventJson, readEventStream } from '@/lib/sse'

export type AutofillEvent =
  | { type: 'answer'; questionId: string; text: string; complete: boolean }
  | { type: 'done'; answers: Record<string, string>; truncated: boolean }
  | { type: 'error'; message: string }

/** One parsed event as the app reads it (`null` for an unknown or unreadable one). */
export function toAutofillEvent(event: string, data: string): AutofillEvent | null {
  const json = eventJson(data)
  if (!json) return null
  if (event === 'answer' && typeof json.questionId === 'string' && typeof json.text === 'string')
    return { type: 'answer', questionId: json.questionId, text: json.text, complete: json.complete === true }
  if (event === 'done')
    return {
      type: 'done',
      answers: (json.answers ?? {}) as Record<string, string>,
      truncated: json.truncated === true,
    }
  if (event === 'error') return { type: 'error', message: String(json.message ?? 'Autofill failed.') }
  return null
}

/** What a refusal before the stream says, by status when the body has no sentence. */
async function refusal(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { error?: unknown }
    if (typeof body.error === 'string' && body.error) return body.error
  } catch {
    // not JSON: fall through
  }
  if (response.status === 401) return 'Your session has ended. Sign in again to use AI autofill.'
  if (response.status === 404) return 'This task was not found, or you no longer have access to it.'
  return `AI autofill failed (HTTP ${response.status}). Please try again.`
}

/**
 * Runs autofill for `taskId`, calling `onEvent` for each event. Resolves when the stream
 * ends; rejects with a user-readable Error when the server refuses or the connection drops
 * (an abort through `signal` rejects with an `AbortError`).
 */
export async function streamAutofill(
  taskId: string,
  onEvent: (event: AutofillEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(`/api/tasks/${encodeURIComponent(taskId)}/autofill`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'text/event-stream' },
    signal,
  })
  if (!response.ok || !response.body) throw new Error(await refusal(response))
  let ended = false
  await readEventStream(response.body, ({ event, data }) => {
    const parsed = toAutofillEvent(event, data)
    if (!parsed) return
    if (parsed.type !== 'answer') ended = true
    onEvent(parsed)
  })
  if (!ended) throw new Error('The connection to the server was lost before the answers were finished. Please try again.')
}
