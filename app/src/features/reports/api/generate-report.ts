//! `POST /api/reports/generate`: the report streams in as the model writes it. The answer is
//! Server-Sent Events: `progress` {step, of, label}, `text` {delta}, `done` {}, `error`
//! {message}. A refusal before the stream starts is JSON `{error, fieldErrors?}`.

import { eventJson, readEventStream } from '@/lib/sse'

export interface GenerateInput {
  taskIds: string[]
  voiceNoteIds: string[]
  instructions: string
  title: string
}

export type ReportEvent =
  | { type: 'progress'; step: number; of: number; label: string }
  | { type: 'text'; delta: string }
  | { type: 'done' }
  | { type: 'error'; message: string }

/** A refusal before the stream started, with the server's per-field messages. */
export class GenerateError extends Error {
  readonly fieldErrors: Record<string, string>

  constructor(message: string, fieldErrors: Record<string, string> = {}) {
    super(message)
    this.fieldErrors = fieldErrors
  }
}

/** One event of the stream as a report event (`null` for an unknown or unreadable one). */
export function toReportEvent(name: string, data: string): ReportEvent | null {
  const payload = eventJson(data)
  if (!payload) return null
  switch (name) {
    case 'progress':
      return { type: 'progress', step: Number(payload.step), of: Number(payload.of), label: String(payload.label ?? '') }
    case 'text':
      return { type: 'text', delta: String(payload.delta ?? '') }
    case 'done':
      return { type: 'done' }
    case 'error':
      return { type: 'error', message: String(payload.message ?? 'The report could not be written.') }
    default:
      return null
  }
}

async function refusalOf(response: Response): Promise<GenerateError> {
  try {
    const body = (await response.json()) as { error?: string; fieldErrors?: Record<string, string[] | undefined> }
    const fields: Record<string, string> = {}
    for (const [field, messages] of Object.entries(body.fieldErrors ?? {})) {
      if (messages?.[0]) fields[field] = messages[0]
    }
    return new GenerateError(body.error ?? 'The report could not be written.', fields)
  } catch {
    return new GenerateError(
      response.status === 401 ? 'Please sign in again.' : `The report could not be written (HTTP ${response.status}).`,
    )
  }
}

/**
 * Starts a generation; `onEvent` receives each event as it arrives. Resolves when the
 * stream ends; rejects with a `GenerateError` for a refusal, or an `AbortError` when
 * `signal` aborts.
 */
export async function generateReport(
  input: GenerateInput,
  onEvent: (event: ReportEvent) => void,
  signal?: AbortSignal,
): Promise<void> {
  const response = await fetch('/api/reports/generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(input),
    credentials: 'same-origin',
    signal,
  })
  if (!response.ok || !response.body) throw await refusalOf(response)
  await readEventStream(response.body, ({ event, data }) => {
    const parsed = toReportEvent(event, data)
    if (parsed) onEvent(parsed)
  })
}
