//! Reading a `text/event-stream` answer (Server-Sent Events) from `fetch`, for the calls that
//! stream because tRPC does not: AI autofill, the report generator and the AI assistant. The
//! event names and payloads are each caller's; this file only splits the stream into events
//! as its bytes arrive, however the network cuts them.

/** One event of the stream: its `event:` name ('message' when none) and its `data:` lines. */
export interface SseEvent {
  event: string
  data: string
}

/** One event block (its lines, without the blank line that ends it); `null` when it has no data. */
export function parseEventBlock(block: string): SseEvent | null {
  let event = 'message'
  const data: string[] = []
  for (const line of block.split(/\r\n?|\n/)) {
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    let value = colon === -1 ? '' : line.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') event = value
    else if (field === 'data') data.push(value)
  }
  return data.length > 0 ? { event, data: data.join('\n') } : null
}

/** Splits a text/event-stream into events as its text arrives (any chunking). */
export class SseParser {
  private buffer = ''

  /** The events completed by `text` (appended to what came before). */
  push(text: string): SseEvent[] {
    this.buffer += text
    // A CR at the very end may be the first half of a CRLF: keep it until the next piece.
    const keepCr = this.buffer.endsWith('\r')
    const whole = (keepCr ? this.buffer.slice(0, -1) : this.buffer).replace(/\r\n?/g, '\n')
    this.buffer = whole
    const out: SseEvent[] = []
    let end = this.buffer.indexOf('\n\n')
    while (end !== -1) {
      const event = parseEventBlock(this.buffer.slice(0, end))
      if (event) out.push(event)
      this.buffer = this.buffer.slice(end + 2)
      end = this.buffer.indexOf('\n\n')
    }
    if (keepCr) this.buffer += '\r'
    return out
  }

  /**
   * The last event when the stream ended without the blank line after it (some servers and
   * proxies drop it); nothing otherwise. The parser is empty afterwards.
   */
  flush(): SseEvent[] {
    const rest = this.buffer.replace(/\r\n?/g, '\n')
    this.buffer = ''
    const event = rest.trim() ? parseEventBlock(rest) : null
    return event ? [event] : []
  }
}

/**
 * Reads `body` to its end, calling `onEvent` for each event as soon as it is complete.
 * Rejects as the underlying read does (an aborted fetch rejects with an `AbortError`).
 */
export async function readEventStream(body: ReadableStream<BufferSource>, onEvent: (event: SseEvent) => void): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  const parser = new SseParser()
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    for (const event of parser.push(value)) onEvent(event)
  }
  for (const event of parser.flush()) onEvent(event)
}

/** The JSON object an event carries; `null` when its data is not a JSON object. */
export function eventJson(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}
