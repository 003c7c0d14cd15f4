import { describe, expect, it } from 'vitest'

import { createPhotoPreparer, PhotoError, toBase64, type PhotoRequest, type PhotoResponse, type PhotoWorker } from './photo-prep'

/** A worker stand-in that answers each request with `answer(request)`, out of order if asked. */
function fakeWorker(answer: (request: PhotoRequest) => Omit<PhotoResponse, 'id'>) {
  const listeners: Record<string, ((event: never) => void)[]> = {}
  const sent: PhotoRequest[] = []
  const worker: PhotoWorker = {
    postMessage(request) {
      sent.push(request)
      queueMicrotask(() => {
        const data = { id: request.id, ...answer(request) } as PhotoResponse
        for (const listener of listeners.message ?? []) listener({ data } as never)
      })
    },
    addEventListener(type: string, listener: (event: never) => void) {
      ;(listeners[type] ??= []).push(listener)
    },
  }
  return { worker, sent, fail: () => listeners.error?.forEach((l) => l({} as never)) }
}

describe('createPhotoPreparer', () => {
  it('sends the photo with the defaults and hands back the JPEG', async () => {
    const { worker, sent } = fakeWorker(() => ({ ok: true, bytes: new Uint8Array([1, 2, 3]).buffer, width: 1600, height: 1200, path: 'native' }))
    const prepare = createPhotoPreparer(worker)
    const photo = new Blob([new Uint8Array([0xff, 0xd8])], { type: 'image/jpeg' })
    const prepared = await prepare(photo)
    expect(Array.from(prepared.bytes)).toEqual([1, 2, 3])
    expect(prepared).toMatchObject({ width: 1600, height: 1200, path: 'native' })
    expect(sent[0]).toMatchObject({ photo, maxSide: 1600, quality: 80 })
  })

  it("rejects with the worker's message, and refuses an empty file before sending it", async () => {
    const { worker, sent } = fakeWorker(() => ({ ok: false, error: 'This file could not be read as a photo.' }))
    const prepare = createPhotoPreparer(worker)
    await expect(prepare(new Blob([new Uint8Array([1])]))).rejects.toThrow('This file could not be read as a photo.')
    await expect(prepare(new Blob([]))).rejects.toBeInstanceOf(PhotoError)
    expect(sent).toHaveLength(1)
  })

  it('fails every later call once the worker itself has failed', async () => {
    const { worker, fail } = fakeWorker(() => ({ ok: true, bytes: new ArrayBuffer(0), width: 1, height: 1, path: 'native' }))
    const prepare = createPhotoPreparer(worker)
    fail()
    await expect(prepare(new Blob([new Uint8Array([1])]))).rejects.toThrow('The photo worker failed to start.')
  })
})

describe('toBase64', () => {
  it('encodes bytes as standard base64, also past one chunk', () => {
    expect(toBase64(new Uint8Array([0xff, 0xd8, 0xff]))).toBe('/9j/')
    const big = new Uint8Array(100_000).fill(65)
    expect(atob(toBase64(big))).toBe('A'.repeat(100_000))
  })
})
