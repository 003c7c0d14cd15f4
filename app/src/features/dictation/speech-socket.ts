//! The live speech-to-text socket (Deepgram's /v1/listen protocol, shared/reference/deepgram.md):
//! the URL with the product's parameters, and reading the server's messages.

/** Spec sections 7 and 9: nova-2, smart formatting, profanity filter; raw 16 kHz PCM. */
export const LISTEN_PARAMS = {
  model: 'nova-2',
  smart_format: 'true',
  profanity_filter: 'true',
  encoding: 'linear16',
  sample_rate: '16000',
  channels: '1',
  interim_results: 'true',
} as const

export const KEEP_ALIVE_MS = 10_000

export function listenUrl(base: string): string {
  // The server may hand out an http(s) base; the browser needs ws(s).
  const url = new URL(base)
  if (url.protocol === 'http:') url.protocol = 'ws:'
  if (url.protocol === 'https:') url.protocol = 'wss:'
  for (const [name, value] of Object.entries(LISTEN_PARAMS)) url.searchParams.set(name, value)
  return url.toString()
}

/** What a text frame means for the transcript; unknown message types mean nothing. */
export type SpeechEvent = { kind: 'interim'; text: string } | { kind: 'final'; text: string } | null

export function readSpeechMessage(data: unknown): SpeechEvent {
  if (typeof data !== 'string') return null
  let message: unknown
  try {
    message = JSON.parse(data)
  } catch {
    return null
  }
  if (!message || typeof message !== 'object' || (message as { type?: unknown }).type !== 'Results') return null
  const results = message as { is_final?: boolean; channel?: { alternatives?: { transcript?: unknown }[] } }
  const text = results.channel?.alternatives?.[0]?.transcript
  if (typeof text !== 'string') return null
  return results.is_final ? { kind: 'final', text: text.trim() } : { kind: 'interim', text: text.trim() }
}

/** The transcript with a final segment added (empty segments, i.e. silence, are skipped). */
export function appendFinal(transcript: string, segment: string): string {
  if (!segment) return transcript
  return transcript ? `${transcript} ${segment}` : segment
}
