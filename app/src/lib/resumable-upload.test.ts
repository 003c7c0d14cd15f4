// The resumable uploader against a fake server: parts go one at a time, a network failure
// retries only the part in flight (after `online` when offline), a refusal rejects at once
// with the server's sentence, and a resumed upload sends only the parts `listParts` lacks.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const calls: { path: string; input: Record<string, unknown> }[] = []
let heldParts: { partNumber: number; etag: string; size: number }[] = []
let uploadGone = false

vi.mock('@/lib/rpc', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/lib/rpc')>()
  const answer = (path: string, input: Record<string, unknown>) => {
    calls.push({ path, input })
    switch (path) {
      case 'upload.start':
        return { key: 's/voice-notes/ab/a.wav', uploadId: 'u1', partSize: 4, partCount: 3 }
      case 'upload.signParts':
        return {
          parts: (input.partNumbers as number[]).map((n) => ({ partNumber: n, url: `/part/${n}`, headers: { 'content-type': 'audio/wav' }, expiresAt: new Date() })),
        }
      case 'upload.listParts':
        if (uploadGone) throw Object.assign(new Error('Upload not found.'), { data: { code: 'NOT_FOUND' } })
        return { parts: heldParts }
      case 'upload.complete':
        return { key: input.key, size: 10 }
      default:
        throw new Error(path)
    }
  }
  return {
    ...original,
    rpcMutation: vi.fn(async (path: string, input: Record<string, unknown>) => answer(path, input)),
    rpcQuery: vi.fn(async (path: string, input: Record<string, unknown>) => answer(path, input)),
  }
})

/** What the fake storage does with each PUT, in order: 'ok', 'network' or a status. */
let script: ('ok' | 'network' | number)[] = []
const sent: { url: string; bytes: number }[] = []

class FakeXhr {
  status = 0
  responseText = ''
  url = ''
  upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  ontimeout: (() => void) | null = null
  onabort: (() => void) | null = null
  open(_method: string, url: string) { this.url = url }
  setRequestHeader() {}
  getResponseHeader(name: string) { return name === 'ETag' && this.status === 200 ? `"etag-${this.url}"` : null }
  abort() { this.onabort?.() }
  send(body: Blob) {
    sent.push({ url: this.url, bytes: body.size })
    const step = script.shift() ?? 'ok'
    queueMicrotask(() => {
      if (step === 'network') return this.onerror?.()
      this.status = step === 'ok' ? 200 : step
      this.responseText = step === 'ok' ? '{}' : JSON.stringify({ error: 'Files must be 50 MB or smaller in total.' })
      this.upload.onprogress?.({ loaded: body.size })
      this.onload?.()
    })
  }
}

let online = true

beforeEach(() => {
  calls.length = 0
  sent.length = 0
  heldParts = []
  uploadGone = false
  script = []
  online = true
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
  vi.stubGlobal('navigator', { get onLine() { return online } })
  vi.stubGlobal('window', new EventTarget())
})

afterEach(() => vi.unstubAllGlobals())

const body = new Blob([new Uint8Array(10)], { type: 'audio/wav' })

describe('uploadResumable', () => {
  it('sends each part once and completes with every ETag', async () => {
    const { uploadResumable } = await import('./resumable-upload')
    const states: number[] = []
    const progress: number[] = []
    const result = await uploadResumable({
      body, filename: 'a.wav', contentType: 'audio/wav', kind: 'voiceNote',
      onState: (s) => { states.push(s.parts.length) },
      onProgress: (f) => progress.push(f),
    })
    expect(result).toEqual({ key: 's/voice-notes/ab/a.wav', size: 10 })
    expect(sent.map((s) => s.bytes)).toEqual([4, 4, 2])
    expect(states).toEqual([0, 1, 2, 3])
    expect(progress.at(-1)).toBe(1)
    const complete = calls.find((c) => c.path === 'upload.complete')
    expect(complete?.input.parts).toEqual([1, 2, 3].map((n) => ({ partNumber: n, etag: `"etag-/part/${n}"` })))
  })

  it('retries only the part that was cut, after the browser is back online', async () => {
    const { uploadResumable } = await import('./resumable-upload')
    script = ['ok', 'network']
    online = true
    const pending = uploadResumable({ body, filename: 'a.wav', contentType: 'audio/wav', kind: 'voiceNote' })
    // The cut happens offline: the uploader waits for `online` instead of failing.
    online = false
    await vi.waitFor(() => expect(sent.length).toBe(2))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(sent.length).toBe(2)
    online = true
    window.dispatchEvent(new Event('online'))
    await pending
    expect(sent.map((s) => s.url)).toEqual(['/part/1', '/part/2', '/part/2', '/part/3'])
  })

  it('rejects at once with the server sentence when a part is refused', async () => {
    const { uploadResumable } = await import('./resumable-upload')
    script = [413]
    await expect(
      uploadResumable({ body, filename: 'a.wav', contentType: 'audio/wav', kind: 'voiceNote' }),
    ).rejects.toThrow('Files must be 50 MB or smaller in total.')
    expect(sent.length).toBe(1)
  })

  it('gives up on a storage that keeps answering 503 after three tries, naming the file', async () => {
    const { uploadResumable } = await import('./resumable-upload')
    const { UploadError } = await import('./upload')
    script = [503, 503, 503, 503]
    const failure = await uploadResumable({ body, filename: 'a.wav', contentType: 'audio/wav', kind: 'voiceNote' }).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(UploadError)
    expect((failure as InstanceType<typeof UploadError>).filename).toBe('a.wav')
    expect(sent.length).toBe(3)
  })

  it('resumes from the parts the server holds', async () => {
    const { uploadResumable } = await import('./resumable-upload')
    heldParts = [
      { partNumber: 1, etag: '"a"', size: 4 },
      { partNumber: 2, etag: '"b"', size: 4 },
    ]
    await uploadResumable({
      body, filename: 'a.wav', contentType: 'audio/wav', kind: 'voiceNote',
      state: { kind: 'voiceNote', key: 's/voice-notes/ab/a.wav', uploadId: 'u1', partSize: 4, parts: [{ partNumber: 1, etag: '"a"' }] },
    })
    expect(calls.some((c) => c.path === 'upload.start')).toBe(false)
    expect(sent.map((s) => s.url)).toEqual(['/part/3'])
    const complete = calls.find((c) => c.path === 'upload.complete')
    expect((complete?.input.parts as unknown[]).length).toBe(3)
  })

  it('opens the upload with the outbox key, and anew without it when the kept upload is gone', async () => {
    const { uploadResumable } = await import('./resumable-upload')
    await uploadResumable({ body, filename: 'a.wav', contentType: 'audio/wav', kind: 'voiceNote', idempotencyKey: 'item-0123456789-s' })
    expect(calls.find((c) => c.path === 'upload.start')?.input.idempotencyKey).toBe('item-0123456789-s')

    calls.length = 0
    uploadGone = true
    await uploadResumable({
      body, filename: 'a.wav', contentType: 'audio/wav', kind: 'voiceNote', idempotencyKey: 'item-0123456789-s',
      state: { kind: 'voiceNote', key: 's/voice-notes/ab/a.wav', uploadId: 'gone', partSize: 4, parts: [] },
    })
    const start = calls.find((c) => c.path === 'upload.start')
    expect(start).toBeDefined()
    expect(start?.input).not.toHaveProperty('idempotencyKey')
  })
})
