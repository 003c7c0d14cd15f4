//! The messages between the app and the core worker (src/workers/core.worker.ts).

/** The business limits the core exports (spec section 9). */
export interface CoreLimits {
  maxUploadBytes: number
  maxPhotosPerAnalysis: number
  dictationLimitSeconds: number
  feedbackHubPollSeconds: number
  toastDurationMs: number
  toastLimit: number
  /** Shown when the photo analyser holds its 10 photos (spec section 8); absent in a core
   *  built before the photo limits were exported. */
  photoLimitMessage?: string
  /** Input limits (core-wasm/src/limits.rs); the forms read the same numbers from
   *  src/generated/limits.ts, which the server generates from the core. */
  maxTextChars?: number
  maxListItems?: number
  maxBatchCalls?: number
  maxPersonNameChars?: number
  maxUpnChars?: number
  maxEmailChars?: number
  maxGroupNameChars?: number
  maxTitleChars?: number
}

/**
 * What the worker can do: one entry per binding in core-wasm/src/bindings.rs, with the
 * synchronous signature it has inside the worker. The app calls it through `CoreClient`,
 * where every method returns a promise.
 */
/** A selectable e-mail language: ISO 639-1 code and English name. */
export interface CoreLanguage {
  code: string
  name: string
}

/** The kinds of upload the core has a type rule for (core-wasm/src/uploads.rs). */
export type CoreUploadKind = 'voiceNote' | 'file' | 'submissionFile'

export interface CoreApi {
  coreVersion(): string
  passwordError(password: string): string | undefined
  filenameError(filename: string): string | undefined
  emailError(address: string): string | undefined
  languages(): CoreLanguage[]
  uploadTypeError(kind: CoreUploadKind, contentType: string): string | undefined
  hasRole(role: string, allowed: string[]): boolean
  formatDate(millis: number, withTime: boolean): string
  uploadSizeError(bytes: number): string | undefined
  limits(): CoreLimits
}

export type CoreMethod = keyof CoreApi

/** A call sent to the worker; `id` pairs it with its answer. */
export type CoreRequest = {
  [M in CoreMethod]: { id: number; method: M; args: Parameters<CoreApi[M]> }
}[CoreMethod]

/** The worker's answer to the request with the same `id`. */
export type CoreResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string }
