//! Photo preparation for AI analysis, off the main thread: the app hands a photo (camera
//! frame or chosen file) to src/workers/photo.worker.ts and gets back a JPEG whose longest
//! side is at most `maxSide`, turned upright by its EXIF orientation, with no metadata (no
//! GPS). The worker's default path was chosen by `bash bench/browser.sh photo` (see
//! DEFAULT_PHOTO_PATH and app/bench/photo.ts).

export { jpegSize } from './jpeg'

/**
 * How the worker makes the JPEG:
 * - `hybrid`: the browser decodes, orients and resizes, wasm encodes (4:2:0, optimised
 *   Huffman) the pixels read back with getImageData;
 * - `wasm`: wasm does everything (decode, orientation, resize, encode);
 * - `native`: the browser decodes, orients, resizes and encodes (OffscreenCanvas in the
 *   worker); the metadata segments the canvas adds (a colour profile) are dropped.
 */
export type PhotoPath = 'hybrid' | 'wasm' | 'native'

/**
 * The path the app uses, chosen by `bash bench/browser.sh photo` (4000x3000 JPEG -> 1600,
 * headless Chromium 156 on 2 shared cores, medians of 5). In the worker, native did the
 * work in 152-157 ms and 358 423 bytes against 153-169 ms and 358 897 bytes for the same work
 * on the page (the worker adds two messages; dropping the canvas's colour profile saves the
 * bytes), at the same SSIM (0.9468). Hybrid took 183-206 ms: the wasm encode (~45-50 ms) plus
 * reading the pixels back (~35 ms) cost more than Chrome's resize + encode (~50 ms), and its
 * JPEG was no smaller (357 798-375 704 bytes at the same SSIM over two builds of the core).
 * Wasm took 248-259 ms. The wasm path stays as the fallback for photos the browser cannot
 * decode.
 */
export const DEFAULT_PHOTO_PATH: PhotoPath = 'native'

/** Longest side of a prepared photo, in pixels. */
export const MAX_PHOTO_SIDE = 1600

/** JPEG quality (0-100) of a prepared photo, tuned by the benchmark against the native path's SSIM. */
export const PHOTO_QUALITY = 80

/**
 * Where the hybrid path shrinks the photo: `bitmap` decodes straight to the target size
 * (createImageBitmap's resizeWidth/Height, quality 'high'); `canvas` decodes at full size and
 * draws it scaled (imageSmoothingQuality 'high').
 */
export type HybridResize = 'bitmap' | 'canvas'

/** Measured: the same pixels either way; `canvas` is the faster by ~10 ms and skips the header read. */
export const DEFAULT_HYBRID_RESIZE: HybridResize = 'canvas'

export interface PrepareOptions {
  maxSide?: number
  quality?: number
  path?: PhotoPath
  resize?: HybridResize
}

export interface PreparedPhoto {
  /** The JPEG bytes. */
  bytes: Uint8Array
  width: number
  height: number
  /** Which path made it (differs from the requested one only when it had to fall back). */
  path: PhotoPath
  /** Milliseconds per stage inside the worker (for the benchmark). */
  stages?: Record<string, number>
}

/** A request to the photo worker. A Blob crosses to the worker without copying its bytes:
 *  the worker reads only what its path needs (the header, or everything for `wasm`). */
export interface PhotoRequest {
  id: number
  photo: Blob
  maxSide: number
  quality: number
  path: PhotoPath
  resize: HybridResize
}

export type PhotoResponse =
  | {
      id: number
      ok: true
      bytes: ArrayBuffer
      width: number
      height: number
      path: PhotoPath
      stages?: Record<string, number>
    }
  | { id: number; ok: false; error: string }

/** The error a preparation rejects with: a sentence the user can read. */
export class PhotoError extends Error {
  override name = 'PhotoError'
}

/** The part of `Worker` the client uses, so tests can hand it a fake. */
export interface PhotoWorker {
  postMessage(message: PhotoRequest): void
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
      waiting.resolve({
        bytes: new Uint8Array(answer.bytes),
        width: answer.width,
        height: answer.height,
        path: answer.path,
        stages: answer.stages,
      })
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
    if (photo.size === 0) throw new PhotoError('This file is empty.')
    return new Promise<PreparedPhoto>((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject })
      worker.postMessage({
        id,
        photo,
        maxSide: options.maxSide ?? MAX_PHOTO_SIDE,
        quality: options.quality ?? PHOTO_QUALITY,
        path: options.path ?? DEFAULT_PHOTO_PATH,
        resize: options.resize ?? DEFAULT_HYBRID_RESIZE,
      })
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

/** Standard base64 of `bytes` (what `notification.analyseImage` takes). */
export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  const chunk = 0x8000
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk))
  return btoa(binary)
}
