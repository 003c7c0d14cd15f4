// The core client's request/response correlation, against a fake Worker.

import { describe, expect, it } from 'vitest'

import { CoreError, createCoreClient, type CoreWorker } from './core'
import type { CoreRequest, CoreResponse } from './core-protocol'

/** A stand-in for the worker: records requests and lets the test answer them. */
class FakeWorker implements CoreWorker {
  readonly requests: CoreRequest[] = []
  private readonly listeners = new Map<string, ((event: never) => void)[]>()

  postMessage(message: CoreRequest) {
    this.requests.push(message)
  }

  addEventListener(type: string, listener: (event: never) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener])
  }

  answer(response: CoreResponse) {
    this.emit('message', { data: response })
  }

  emit(type: string, event: object) {
    for (const listener of this.listeners.get(type) ?? []) listener(event as never)
  }
}

describe('createCoreClient', () => {
  it('sends each call with a fresh id, method and arguments', () => {
    const worker = new FakeWorker()
    const core = createCoreClient(worker)
    void core.hasRole('TEACHER', ['ADMIN'])
    void core.formatDate(0, false)
    expect(worker.requests).toEqual([
      { id: 1, method: 'hasRole', args: ['TEACHER', ['ADMIN']] },
      { id: 2, method: 'formatDate', args: [0, false] },
    ])
  })

  it('has a function for each rule the forms check on submit', async () => {
    const worker = new FakeWorker()
    const core = createCoreClient(worker)
    const filename = core.filenameError('  ')
    void core.emailError('ada')
    void core.languages()
    expect(worker.requests.map((r) => r.method)).toEqual(['filenameError', 'emailError', 'languages'])
    worker.answer({ id: 1, ok: true, value: 'Filename is required' })
    await expect(filename).resolves.toBe('Filename is required')
  })

  it('resolves the right promise when answers arrive out of order', async () => {
    const worker = new FakeWorker()
    const core = createCoreClient(worker)
    const version = core.coreVersion()
    const weak = core.passwordError('weak')
    const good = core.passwordError('Good1234')
    const [first, second, third] = worker.requests.map((r) => r.id)

    worker.answer({ id: third, ok: true, value: undefined })
    worker.answer({ id: first, ok: true, value: '0.1.0' })
    worker.answer({ id: second, ok: true, value: 'too weak' })

    await expect(version).resolves.toBe('0.1.0')
    await expect(weak).resolves.toBe('too weak')
    await expect(good).resolves.toBeUndefined()
  })

  it('rejects with the worker error when the answer is an error', async () => {
    const worker = new FakeWorker()
    const core = createCoreClient(worker)
    const bad = core.hasRole('JANITOR', ['ADMIN'])
    const fine = core.coreVersion()
    const [badId, fineId] = worker.requests.map((r) => r.id)

    worker.answer({ id: badId, ok: false, error: 'Unknown role: JANITOR' })
    worker.answer({ id: fineId, ok: true, value: '0.1.0' })

    await expect(bad).rejects.toThrow(CoreError)
    await expect(bad).rejects.toThrow('Unknown role: JANITOR')
    await expect(fine).resolves.toBe('0.1.0')
  })

  it('ignores answers nobody waits for', async () => {
    const worker = new FakeWorker()
    const core = createCoreClient(worker)
    const version = core.coreVersion()
    worker.answer({ id: 99, ok: true, value: 'stray' })
    worker.answer({ id: worker.requests[0].id, ok: true, value: '0.1.0' })
    await expect(version).resolves.toBe('0.1.0')
  })

  it('rejects waiting and later calls when the worker fails to load', async () => {
    const worker = new FakeWorker()
    const core = createCoreClient(worker)
    const waiting = core.coreVersion()
    worker.emit('error', { message: 'wasm failed' })

    await expect(waiting).rejects.toThrow('The core worker failed to start: wasm failed')
    await expect(core.limits()).rejects.toThrow(CoreError)
    expect(worker.requests).toHaveLength(1)
  })
})
