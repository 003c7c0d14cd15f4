//! Uploads in parts that resume (docs/storage.md, "Uploads in parts"): `upload.start` opens
//! the upload, each 5 MiB part is PUT to a URL from `upload.signParts` (the server's own for
//! the local store, S3's presigned `UploadPart` otherwise), `upload.complete` joins them. A
//! cut connection costs at most the part in flight: the part is retried with backoff, after
//! the `online` event when the browser knows it is offline; a page that starts again with
//! the saved `ResumeState` asks `upload.listParts` and sends only the missing parts.
//!
//! Hand-written rather than Uppy (`@uppy/core` + `@uppy/aws-s3`): see the docs for why.
//! Import it lazily (`await import('@/lib/resumable-upload')`), never from the entry chunk.

import { TRPCClientError } from '@trpc/client'

import { errorCode, errorMessage, rpcMutation, rpcQuery } from '@/lib/rpc'
import { UploadError } from '@/lib/upload'

export type UploadKind = 'voiceNote' | 'file' | 'taskFile'

/** Where an upload stands: enough for another page to carry on (the outbox persists it). */
export interface ResumeState {
  kind: UploadKind
  key: string
  uploadId: string
  partSize: number
  parts: { partNumber: number; etag: string }[]
}

export interface ResumableUploadOptions {
  body: Blob
  filename: string
  contentType: string
  kind: UploadKind
  taskId?: string
  /** Resume where a previous page left off. */
  state?: ResumeState
  /**
   * The outbox's key for opening the upload: a try whose answer was lost gets the same
   * upload back rather than a second one. Used only when there is no `state` to resume.
   */
  idempotencyKey?: string
  /** Called after start and after each confirmed part. */
  onState?: (s: ResumeState) => void | Promise<void>
  onProgress?: (fraction: number) => void
  signal?: AbortSignal
}

/** The longest wait between two tries of a part. */
const MAX_BACKOFF_MS = 30_000
/** Tries of one step when no answer comes while the browser believes it is online (offline waits do not count). */
const MAX_NETWORK_TRIES = 8
/** Tries of one step the server answers with 408, 429 or 5xx: a broken store should fail in seconds. */
const MAX_SERVER_TRIES = 3

/** A failure worth another try: no answer (`status` 0), a timeout, the server busy or broken. */
class Transient extends Error {
  override name = 'Transient'
  readonly status: number

  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

function aborted(filename: string, signal?: AbortSignal): UploadError | null {
  return signal?.aborted ? new UploadError(filename, 0, 'The upload was cancelled') : null
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => { clearTimeout(timer); resolve() }, { once: true })
  })
}

/** Resolves when the browser is back online (at once when it is). */
function whenOnline(signal?: AbortSignal): Promise<void> {
  if (typeof navigator === 'undefined' || navigator.onLine) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => { window.removeEventListener('online', done); resolve() }
    window.addEventListener('online', done)
    signal?.addEventListener('abort', done, { once: true })
  })
}

/** Whether an RPC failure is the network's (no answer, or 5xx/timeouts) rather than a refusal. */
function rpcTransient(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false
  const code = errorCode(error)
  return code === undefined || ['INTERNAL_SERVER_ERROR', 'TIMEOUT', 'SERVICE_UNAVAILABLE', 'BAD_GATEWAY', 'GATEWAY_TIMEOUT', 'TOO_MANY_REQUESTS'].includes(code)
}

/**
 * Runs `attempt` until it succeeds, retrying transient failures with backoff (1 s doubling
 * to 30 s); offline, it waits for `online` without counting a try. Gives up with an
 * `UploadError` for `filename`.
 */
async function withRetry<T>(filename: string, attempt: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  let tries = 0
  for (;;) {
    const stop = aborted(filename, signal)
    if (stop) throw stop
    try {
      return await attempt()
    } catch (error) {
      const transient = error instanceof Transient || rpcTransient(error)
      if (!transient) throw error
      const stop = aborted(filename, signal)
      if (stop) throw stop
      if (typeof navigator !== 'undefined' && !navigator.onLine) {
        await whenOnline(signal)
        continue
      }
      tries += 1
      const answered = error instanceof Transient ? error.status > 0 : errorCode(error) !== undefined
      if (tries >= (answered ? MAX_SERVER_TRIES : MAX_NETWORK_TRIES)) {
        if (error instanceof Transient) throw new UploadError(filename, error.status, error.message)
        throw error
      }
      await sleep(Math.min(MAX_BACKOFF_MS, 500 * 2 ** tries), signal)
    }
  }
}

/** PUTs one part; resolves with its ETag. 4xx answers reject with the server's sentence. */
function putPart(
  url: string,
  headers: Record<string, string>,
  body: Blob,
  filename: string,
  onProgress: (loaded: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', url)
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (event) => onProgress(event.loaded)
    const onAbort = () => xhr.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    xhr.onload = () => {
      signal?.removeEventListener('abort', onAbort)
      if (xhr.status >= 200 && xhr.status < 300) {
        // S3 answers the ETag in a header (the bucket's CORS rule must expose it); the local
        // store also in its JSON body.
        let etag = xhr.getResponseHeader('ETag') ?? ''
        if (!etag) {
          try { etag = (JSON.parse(xhr.responseText) as { etag?: string }).etag ?? '' } catch { etag = '' }
        }
        if (etag) resolve(etag)
        else reject(new UploadError(filename, xhr.status, 'The storage did not confirm the part.'))
        return
      }
      if (xhr.status === 408 || xhr.status === 429 || xhr.status >= 500) {
        reject(new Transient(xhr.status, `The storage answered ${xhr.status}`))
        return
      }
      let sentence = ''
      try { sentence = (JSON.parse(xhr.responseText) as { error?: string }).error ?? '' } catch { sentence = '' }
      reject(new UploadError(filename, xhr.status, sentence || 'The storage refused the upload.'))
    }
    xhr.onerror = () => { signal?.removeEventListener('abort', onAbort); reject(new Transient(0, 'The upload could not reach the storage')) }
    xhr.ontimeout = xhr.onerror
    xhr.onabort = () => reject(new UploadError(filename, 0, 'The upload was cancelled'))
    xhr.send(body)
  })
}

/** The parts the server holds for `state`, or null when the upload is gone (finished or dropped). */
async function heldParts(state: ResumeState, filename: string, signal?: AbortSignal): Promise<ResumeState['parts'] | null> {
  try {
    const { parts } = await withRetry(filename, () => rpcQuery('upload.listParts', { key: state.key, uploadId: state.uploadId }), signal)
    return parts.map((p) => ({ partNumber: p.partNumber, etag: p.etag }))
  } catch (error) {
    if (errorCode(error) === 'NOT_FOUND') return null
    throw error
  }
}

/**
 * Uploads `body` in parts and resolves with its key and size. Server refusals of the declared
 * file (`upload.start`) reject as the tRPC error; a refused part as an `UploadError` carrying the
 * server's sentence; network failures are retried until the part goes through.
 */
export async function uploadResumable(opts: ResumableUploadOptions): Promise<{ key: string; size: number }> {
  const { body, filename, contentType, kind, signal } = opts
  const size = body.size
  let state: ResumeState | null = null
  if (opts.state && opts.state.kind === kind) {
    const held = await heldParts(opts.state, filename, signal)
    if (held) state = { ...opts.state, parts: held }
  }
  if (!state) {
    // A kept upload that is gone (finished elsewhere, or swept as abandoned) starts anew
    // without the key, which would answer the gone one.
    const key = opts.state ? undefined : opts.idempotencyKey
    const started = await withRetry(
      filename,
      () =>
        rpcMutation('upload.start', {
          kind,
          filename,
          contentType,
          size,
          ...(opts.taskId ? { taskId: opts.taskId } : {}),
          ...(key ? { idempotencyKey: key } : {}),
        }),
      signal,
    )
    state = { kind, key: started.key, uploadId: started.uploadId, partSize: started.partSize, parts: [] }
  }
  await opts.onState?.(state)

  const current = state
  const partCount = Math.max(1, Math.ceil(size / current.partSize))
  const confirmed = new Map(current.parts.map((p) => [p.partNumber, p.etag]))
  const lengthOf = (n: number) => Math.min(current.partSize, size - (n - 1) * current.partSize)
  let done = 0
  for (const n of confirmed.keys()) done += lengthOf(n)
  const report = (inFlight: number) => opts.onProgress?.(size > 0 ? Math.min(1, (done + inFlight) / size) : 1)
  report(0)

  for (let n = 1; n <= partCount; n++) {
    if (confirmed.has(n)) continue
    const start = (n - 1) * current.partSize
    const slice = body.slice(start, start + lengthOf(n), contentType)
    const etag = await withRetry(filename, async () => {
      // Signed just before sending: a URL is good for 15 minutes, an offline wait may be longer.
      const { parts } = await rpcMutation('upload.signParts', { key: current.key, uploadId: current.uploadId, partNumbers: [n] })
      const part = parts[0]
      if (!part) throw new UploadError(filename, 0, 'The upload could not be prepared.')
      return putPart(part.url, part.headers, slice, filename, report, signal)
    }, signal)
    confirmed.set(n, etag)
    done += lengthOf(n)
    current.parts = [...confirmed].map(([partNumber, e]) => ({ partNumber, etag: e })).sort((a, b) => a.partNumber - b.partNumber)
    report(0)
    await opts.onState?.({ ...current, parts: [...current.parts] })
  }

  const completed = await withRetry(
    filename,
    () => rpcMutation('upload.complete', { key: current.key, uploadId: current.uploadId, parts: current.parts }),
    signal,
  ).catch((error: unknown) => {
    throw error instanceof UploadError ? error : new UploadError(filename, 400, errorMessage(error))
  })
  opts.onProgress?.(1)
  return { key: completed.key, size: completed.size }
}
