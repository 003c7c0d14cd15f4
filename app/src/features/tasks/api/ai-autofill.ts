//! `POST /api/tasks/{id}/autofill`: the chat model fills the task's answers, streamed as
//! Server-Sent Events (tRPC does not stream): `answer` {questionId, text, complete} as each
//! answer grows (the whole text so far), then `done` {answers, truncated} or `error`
//! {message}. A refusal before the stream is a JSON `{error}` with its status. Aborting the
//! signal closes the connection, which stops the model.

export type AutofillEvent =
  | { type: 'answer'; questionId: string; text: string; complete: boolean }
  | { type: 'done'; answers: Record<string, string>; truncated: boolean }
  | { type: 'error'; message: string }

/** Splits a text/event-stream into events as its bytes arrive (any chunking). */
export class SseParser {
  private buffer = ''

  /** The events completed by `text` (appended to what came before). */
  push(text: string): { event: string; data: string }[] {
    this.buffer += text.replace(/\r\n?/g, '\n')
    const out: { event: string; data: string }[] = []
    let end = this.buffer.indexOf('\n\n')
    while (end !== -1) {
      const block = this.buffer.slice(0, end)
      this.buffer = this.buffer.slice(end + 2)
      let event = 'message'
      const data: string[] = []
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue
        const colon = line.indexOf(':')
        const field = colon === -1 ? line : line.slice(0, colon)
        let value = colon === -1 ? '' : line.slice(colon + 1)
        if (value.startsWith(' ')) value = value.slice(1)
        if (field === 'event') event = value
        else if (field === 'data') data.push(value)
      }
      if (data.length > 0) out.push({ event, data: data.join('\n') })
      end = this.buffer.indexOf('\n\n')
    }
    return out
  }
}

/** One parsed event as the app reads it (`null` for an unknown or unreadable one). */
export function toAutofillEvent(event: string, data: string): AutofillEvent | null {
  let json: Record<string, unknown>
  try {
    json = JSON.parse(data) as Record<string, unknown>
  } catch {
    return null
  }
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
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  const parser = new SseParser()
  let ended = false
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    for (const { event, data } of parser.push(value)) {
      const parsed = toAutofillEvent(event, data)
      if (!parsed) continue
      if (parsed.type !== 'answer') ended = true
      onEvent(parsed)
    }
  }
  if (!ended) throw new Error('The connection to the server was lost before the answers were finished. Please try again.')
}
