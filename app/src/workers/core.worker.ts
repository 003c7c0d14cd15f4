//! The module worker that hosts the wasm core and answers `CoreRequest`s (src/lib/core.ts).

import init, {
  coreVersion,
  emailError,
  filenameError,
  formatDate,
  hasRole,
  languages,
  limits,
  passwordError,
  uploadSizeError,
  uploadTypeError,
} from '../wasm/core_wasm.js'
import wasmUrl from '../wasm/core_wasm_bg.wasm?url'
import type { CoreApi, CoreRequest, CoreResponse } from '../lib/core-protocol'

const api: CoreApi = {
  coreVersion,
  passwordError,
  filenameError,
  emailError,
  languages: () => languages() as ReturnType<CoreApi['languages']>,
  uploadTypeError,
  hasRole,
  formatDate,
  uploadSizeError,
  limits: () => limits() as ReturnType<CoreApi['limits']>,
}

let ready: Promise<unknown> | undefined

/** Loads the wasm module once; a failed load is retried by the next request. */
function initCore(): Promise<unknown> {
  ready ??= init({ module_or_path: wasmUrl }).catch((error: unknown) => {
    ready = undefined
    throw error
  })
  return ready
}

// The worker's global scope, typed by hand: the app's tsconfig uses the DOM library.
const scope = self as unknown as {
  postMessage(message: CoreResponse): void
  addEventListener(type: 'message', listener: (event: MessageEvent<CoreRequest>) => void): void
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

scope.addEventListener('message', async (event) => {
  const { id, method, args } = event.data
  try {
    await initCore()
    if (!Object.hasOwn(api, method)) throw new Error(`Unknown core function: ${String(method)}`)
    const run = api[method] as (...args: unknown[]) => unknown
    scope.postMessage({ id, ok: true, value: run(...args) })
  } catch (error) {
    scope.postMessage({ id, ok: false, error: describe(error) })
  }
})
