//! `POST /api/reports/generate`: the report streams in as the model writes it. The answer is
//! Server-Sent Events: `progress` {step, of, label}, `text` {delta}, `done` {}, `error`
//! {message}. A refusal before the stream starts is JSON `{error, fieldErrors?}`.

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

/** One SSE event block (lines up to a blank line) as a report event, if it is one. */
export function parseEvent(block: string): ReportEvent | null {
  let name = 'message'
  const data: string[] = []
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') name = value
    else if (field === 'data') data.push(value)
  }
  if (data.length === 0) return null
  let payload: Record<string, unknown>
  try {
    payload = JSON.parse(data.join('\n')) as Record<string, unknown>
  } catch {
    return null
  }
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

/** Splits a growing SSE text into complete event blocks and the unfinished rest. */
export function splitBlocks(buffer: string): { blocks: string[]; rest: string } {
  const parts = buffer.split(/\r?\n\r?\n/)
  const rest = parts.pop() ?? ''
  return { blocks: parts.filter((p) => p.trim() !== ''), rest }
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
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buffer += value
    const { blocks, rest } = splitBlocks(buffer)
    buffer = rest
    for (const block of blocks) {
      const event = parseEvent(block)
      if (event) onEvent(event)
    }
  }
  const last = buffer.trim() ? parseEvent(buffer) : null
  if (last) onEvent(last)
}
