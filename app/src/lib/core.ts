//! The app's door to the wasm core: a typed promise API over postMessage to a module
//! Web Worker, so that wasm loading and heavy work never block the page.

import type { CoreApi, CoreMethod, CoreRequest, CoreResponse } from './core-protocol'

export type { CoreApi, CoreLanguage, CoreLimits, CoreUploadKind } from './core-protocol'

/** The part of `Worker` the client uses, so tests can hand it a fake. */
export interface CoreWorker {
  postMessage(message: CoreRequest): void
  addEventListener(type: 'message', listener: (event: MessageEvent<CoreResponse>) => void): void
  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void
}

/** Every core function, answered asynchronously by the worker. */
export type CoreClient = {
  [M in CoreMethod]: (...args: Parameters<CoreApi[M]>) => Promise<ReturnType<CoreApi[M]>>
}

/** The error a core call rejects with: the worker's message, or why the worker failed. */
export class CoreError extends Error {
  override name = 'CoreError'
}

interface Pending {
  resolve(value: unknown): void
  reject(error: CoreError): void
}

/**
 * Every binding the worker answers. A record rather than a list, so that a method added to
 * `CoreApi` but forgotten here is a compile error, not a client without that function.
 */
const METHODS: Record<CoreMethod, true> = {
  coreVersion: true,
  passwordError: true,
  filenameError: true,
  emailError: true,
  languages: true,
  uploadTypeError: true,
  hasRole: true,
  formatDate: true,
  uploadSizeError: true,
  limits: true,
}
const methods = Object.keys(METHODS) as CoreMethod[]

/**
 * Wraps `worker` in a promise API. Each call gets a fresh id, and the answer with that id
 * settles it, whatever order answers come back in. If the worker itself fails (its script
 * or the wasm cannot load), every waiting call rejects and so does every later one.
 */
export function createCoreClient(worker: CoreWorker): CoreClient {
  const pending = new Map<number, Pending>()
  let nextId = 1
  let broken: CoreError | undefined

  const failAll = (error: CoreError) => {
    broken = error
    for (const waiting of pending.values()) waiting.reject(error)
    pending.clear()
  }

  worker.addEventListener('message', (event: MessageEvent<CoreResponse>) => {
    const answer = event.data
    const waiting = pending.get(answer.id)
    if (!waiting) return // an answer nobody waits for any more
    pending.delete(answer.id)
    if (answer.ok) waiting.resolve(answer.value)
    else waiting.reject(new CoreError(answer.error))
  })
  worker.addEventListener('error', (event: Event) => {
    // An ErrorEvent when the script or the wasm failed to load (not a global in Node).
    const message = (event as Partial<ErrorEvent>).message
    const detail = typeof message === 'string' && message ? `: ${message}` : ''
    failAll(new CoreError(`The core worker failed to start${detail}`))
  })
  worker.addEventListener('messageerror', () => {
    failAll(new CoreError('The core worker sent a message that could not be read'))
  })

  const call = (method: CoreMethod, args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      if (broken) {
        reject(broken)
        return
      }
      const id = nextId++
      pending.set(id, { resolve, reject })
      worker.postMessage({ id, method, args } as CoreRequest)
    })

  return Object.fromEntries(
    methods.map((method) => [method, (...args: unknown[]) => call(method, args)]),
  ) as CoreClient
}

let shared: CoreClient | undefined

/** The app's one core client; its worker starts on first use. */
export function getCore(): CoreClient {
  shared ??= createCoreClient(
    new Worker(new URL('../workers/core.worker.ts', import.meta.url), {
      type: 'module',
      name: 'voicemark-core',
    }),
  )
  return shared
}
