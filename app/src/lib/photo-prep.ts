//! Photo preparation for AI analysis, off the main thread: the app hands a photo (camera
//! frame or chosen file) to src/workers/photo.worker.ts and gets back a JPEG whose longest
//! side is at most `maxSide`, turned upright by its EXIF orientation, with no metadata (no
//! GPS). The worker's default path was chosen by `bash bench/browser.sh photo`
//! (docs in app/bench/photo.ts).

/**
 * How the worker makes the JPEG:
 * - `hybrid`: the browser decodes, orients and resizes (createImageBitmap), wasm encodes
 *   (4:2:0, optimised Huffman; smaller than the browser's encoder at equal quality);
 * - `wasm`: wasm does everything (decode, orientation, resize, encode);
 * - `native`: the browser does everything (OffscreenCanvas.convertToBlob), the benchmark's
 *   baseline and the fallback when the wasm encoder is missing.
 */
export type PhotoPath = 'hybrid' | 'wasm' | 'native'

/** The path the app uses (measured: see app/bench/photo.ts). */
export const DEFAULT_PHOTO_PATH: PhotoPath = 'hybrid'

/** Longest side of a prepared photo, in pixels. */
export const MAX_PHOTO_SIDE = 1600

/** JPEG quality (0-100) of a prepared photo, tuned by the benchmark against the native path's SSIM. */
export const PHOTO_QUALITY = 80

export interface PrepareOptions {
  maxSide?: number
  quality?: number
  path?: PhotoPath
}

export interface PreparedPhoto {
  /** The JPEG bytes. */
  bytes: Uint8Array
  width: number
  height: number
  /** Which path made it (differs from the requested one only when it had to fall back). */
  path: PhotoPath
}

/** A request to the photo worker; the input bytes are transferred, not copied. */
export interface PhotoRequest {
  id: number
  bytes: ArrayBuffer
  type: string
  maxSide: number
  quality: number
  path: PhotoPath
}

export type PhotoResponse =
  | { id: number; ok: true; bytes: ArrayBuffer; width: number; height: number; path: PhotoPath }
  | { id: number; ok: false; error: string }

/** The error a preparation rejects with: a sentence the user can read. */
export class PhotoError extends Error {
  override name = 'PhotoError'
}

/** The part of `Worker` the client uses, so tests can hand it a fake. */
export interface PhotoWorker {
  postMessage(message: PhotoRequest, transfer: Transferable[]): void
  addEventListener(type: 'message', listener: (event: MessageEvent<PhotoResponse>) => void): void
  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void
}

export type PreparePhoto = (photo: Blob, options?: PrepareOptions) => Promise<PreparedPhoto>

/** Wraps `worker` in a promise API; answers are matched to calls by id. */
export function createPhotoPreparer(worker: PhotoWorker): PreparePhoto {
  const pending = new Map<number, { resolve(photo: PreparedPhoto): void; reject(error: PhotoError): void }>()
  let nextId = 1
  let broken: PhotoError | undefined

  worker.addEventListener('message', (event: MessageEvent<PhotoResponse>) => {
    const answer = event.data
    const waiting = pending.get(answer.id)
    if (!waiting) return
    pending.delete(answer.id)
    if (answer.ok)
      waiting.resolve({ bytes: new Uint8Array(answer.bytes), width: answer.width, height: answer.height, path: answer.path })
    else waiting.reject(new PhotoError(answer.error))
  })
  const failAll = (error: PhotoError) => {
    broken = error
    for (const waiting of pending.values()) waiting.reject(error)
    pending.clear()
  }
  worker.addEventListener('error', () => failAll(new PhotoError('The photo worker failed to start.')))
  worker.addEventListener('messageerror', () => failAll(new PhotoError('The photo worker sent an unreadable answer.')))

  return async (photo, options = {}) => {
    if (broken) throw broken
    const bytes = await photo.arrayBuffer()
    return new Promise<PreparedPhoto>((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject })
      worker.postMessage(
        {
          id,
          bytes,
          type: photo.type,
          maxSide: options.maxSide ?? MAX_PHOTO_SIDE,
          quality: options.quality ?? PHOTO_QUALITY,
          path: options.path ?? DEFAULT_PHOTO_PATH,
        },
        [bytes],
      )
    })
  }
}

let shared: PreparePhoto | undefined

/** Prepares `photo` in the app's one photo worker (started on first use). */
export function preparePhoto(photo: Blob, options?: PrepareOptions): Promise<PreparedPhoto> {
  shared ??= createPhotoPreparer(
    new Worker(new URL('../workers/photo.worker.ts', import.meta.url), { type: 'module', name: 'voicemark-photo' }),
  )
  return shared(photo, options)
}

/** The size in the SOF header of a JPEG, or undefined when `bytes` is not a readable JPEG. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined
  let at = 2
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined
    const marker = bytes[at + 1]
    if (marker === 0xff) {
      at++ // fill byte
      continue
    }
    const length = (bytes[at + 2] << 8) | bytes[at + 3]
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: (bytes[at + 5] << 8) | bytes[at + 6], width: (bytes[at + 7] << 8) | bytes[at + 8] }
    }
    at += 2 + length
  }
  return undefined
}

/** Standard base64 of `bytes` (what `notification.analyseImage` takes). */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  const chunk = 0x8000
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk))
  return btoa(binary)
}
