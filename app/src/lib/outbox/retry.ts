//! Whether a failed send is worth trying again, and when. A refusal that retrying cannot fix
//! (the server said no: a validation error, a deleted submission, a closed assignment) makes
//! the item Stuck at once; a dropped connection, a timeout or a busy server are tried again
//! with a growing wait, never in a tight loop.

import { errorMessage } from '../rpc'
import { UploadError } from '../upload'

/** The first waits after a failed try, then doubling up to `MAX_BACKOFF_MS`. */
export const FIRST_BACKOFF_MS = 2_000
export const MAX_BACKOFF_MS = 5 * 60_000

/** HTTP statuses that say "try again later" rather than "no". */
const RETRYABLE_STATUS = new Set([408, 409, 425, 429, 500, 502, 503, 504])

export type Verdict = { retry: true } | { retry: false; reason: string }

/**
 * A tRPC client error, told by its name rather than `instanceof`, so that the outbox (in the
 * first page's code) does not pull the tRPC client into it.
 */
function isTrpcError(error: unknown): error is Error & { data?: { httpStatus?: number; code?: string } } {
  return error instanceof Error && error.name === 'TRPCClientError'
}

/** What to do after `error` (thrown by a sender). */
export function verdict(error: unknown): Verdict {
  if (error instanceof UploadError) {
    if (error.status === 0 || RETRYABLE_STATUS.has(error.status)) return { retry: true }
    return { retry: false, reason: error.message }
  }
  if (isTrpcError(error)) {
    const data = error.data
    // No answer at all: the request never reached the server (or its answer never came back).
    if (!data?.httpStatus) return { retry: true }
    if (RETRYABLE_STATUS.has(data.httpStatus)) {
      // A CONFLICT that is not "being processed" is the server's final word.
      if (data.httpStatus !== 409 || /already being processed/i.test(error.message)) return { retry: true }
    }
    return { retry: false, reason: errorMessage(error) }
  }
  if (error instanceof TypeError) return { retry: true } // fetch's "Failed to fetch"
  if (error instanceof DOMException && (error.name === 'AbortError' || error.name === 'NetworkError')) return { retry: true }
  return { retry: false, reason: errorMessage(error) }
}

/** The wait before try number `attempts + 1` (attempts counts the failed tries so far). */
export function backoffMs(attempts: number, jitter = Math.random()): number {
  const base = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1))
  // Up to a fifth more, so many devices coming back online at once do not call together.
  return Math.round(base * (1 + 0.2 * jitter))
}

/** Whether the server (or the storage) answered at all, rather than the connection failing. */
export function serverAnswered(error: unknown): boolean {
  if (error instanceof UploadError) return error.status !== 0
  if (isTrpcError(error)) return Boolean(error.data?.httpStatus)
  return false
}
