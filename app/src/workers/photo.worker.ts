//! The module worker that prepares photos (src/lib/photo-prep.ts): EXIF orientation, longest
//! side at most `maxSide`, JPEG without metadata. It loads the same wasm module as
//! core.worker.ts. Every failure becomes a readable message, never an uncaught error.

import init, * as core from '../wasm/core_wasm.js'
import wasmUrl from '../wasm/core_wasm_bg.wasm?url'
import type { PhotoPath, PhotoRequest, PhotoResponse } from '../lib/photo-prep'

/** The core's photo bindings (core-wasm/src/bindings.rs), looked up at run time so the app
 *  still builds and falls back to the browser's encoder with a core that lacks them. */
interface PhotoBindings {
  photoInfo?(bytes: Uint8Array): { width: number; height: number; orientation: number; format: string }
  preparePhoto?(bytes: Uint8Array, maxSide: number, quality: number): Uint8Array
  encodeJpeg?(rgba: Uint8Array, width: number, height: number, quality: number): Uint8Array
  uploadSizeError?(bytes: number): string | undefined
}
const wasm = core as unknown as PhotoBindings

let ready: Promise<boolean> | undefined

/** Loads the wasm module once; false (and the native path) when it cannot load. */
function initCore(): Promise<boolean> {
  ready ??= init({ module_or_path: wasmUrl }).then(
    () => true,
    () => {
      ready = undefined
      return false
    },
  )
  return ready
}

const UNREADABLE = 'This file could not be read as a photo. Choose a JPEG or PNG image.'

/** The size that fits `width` x `height` inside `maxSide`, keeping the aspect ratio. */
function fit(width: number, height: number, maxSide: number) {
  const scale = Math.min(1, maxSide / Math.max(width, height))
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) }
}

/** The upright size of the photo: from the wasm header reader when it can, else by decoding. */
async function uprightSize(bytes: Uint8Array, blob: Blob): Promise<{ width: number; height: number }> {
  if (wasm.photoInfo) {
    try {
      const info = wasm.photoInfo(bytes)
      // Orientations 5-8 turn the picture by a quarter: its sides swap.
      return info.orientation >= 5 ? { width: info.height, height: info.width } : info
    } catch {
      // A format the core does not read (WebP, for one) may still decode natively below.
    }
  }
  const bitmap = await decode(blob)
  const size = { width: bitmap.width, height: bitmap.height }
  bitmap.close()
  return size
}

async function decode(blob: Blob, options: ImageBitmapOptions = {}): Promise<ImageBitmap> {
  try {
    return await createImageBitmap(blob, { imageOrientation: 'from-image', ...options })
  } catch {
    throw new Error(UNREADABLE)
  }
}

function context(canvas: OffscreenCanvas): OffscreenCanvasRenderingContext2D {
  const ctx = canvas.getContext('2d', { willReadFrequently: true })
  if (!ctx) throw new Error('This browser cannot prepare photos (no 2D canvas in workers).')
  return ctx
}

/** Native decode + orientation + resize, wasm 4:2:0 encode. */
async function hybrid(bytes: Uint8Array, blob: Blob, maxSide: number, quality: number) {
  const upright = await uprightSize(bytes, blob)
  const target = fit(upright.width, upright.height, maxSide)
  const bitmap = await decode(blob, { resizeWidth: target.width, resizeHeight: target.height, resizeQuality: 'high' })
  const { width, height } = bitmap
  const canvas = new OffscreenCanvas(width, height)
  const ctx = context(canvas)
  ctx.drawImage(bitmap, 0, 0)
  bitmap.close()
  const pixels = ctx.getImageData(0, 0, width, height).data
  const jpeg = wasm.encodeJpeg!(new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength), width, height, quality)
  return { bytes: jpeg, width, height }
}

/** Everything in wasm. */
function wasmOnly(bytes: Uint8Array, maxSide: number, quality: number) {
  const jpeg = wasm.preparePhoto!(bytes, maxSide, quality)
  const size = sofSize(jpeg)
  return { bytes: jpeg, ...size }
}

/** Everything in the browser: the benchmark's baseline and the fallback. */
async function native(blob: Blob, maxSide: number, quality: number) {
  const bitmap = await decode(blob)
  const { width, height } = fit(bitmap.width, bitmap.height, maxSide)
  const canvas = new OffscreenCanvas(width, height)
  const ctx = context(canvas)
  ctx.imageSmoothingQuality = 'high'
  ctx.drawImage(bitmap, 0, 0, width, height)
  bitmap.close()
  const out = await canvas.convertToBlob({ type: 'image/jpeg', quality: quality / 100 })
  return { bytes: new Uint8Array(await out.arrayBuffer()), width, height }
}

/** The SOF size of a JPEG the core made (it is always readable). */
function sofSize(jpeg: Uint8Array): { width: number; height: number } {
  for (let at = 2; at + 9 < jpeg.length; ) {
    const marker = jpeg[at + 1]
    if (marker >= 0xc0 && marker <= 0xc2) return { height: (jpeg[at + 5] << 8) | jpeg[at + 6], width: (jpeg[at + 7] << 8) | jpeg[at + 8] }
    at += 2 + ((jpeg[at + 2] << 8) | jpeg[at + 3])
  }
  return { width: 0, height: 0 }
}

async function prepare(request: PhotoRequest) {
  const bytes = new Uint8Array(request.bytes)
  const blob = new Blob([bytes], { type: request.type || 'image/jpeg' })
  const loaded = await initCore()
  const tooBig = loaded ? wasm.uploadSizeError?.(bytes.length) : undefined
  if (tooBig) throw new Error(tooBig)
  let path: PhotoPath = request.path
  if (path === 'hybrid' && !(loaded && wasm.encodeJpeg)) path = 'native'
  if (path === 'wasm' && !(loaded && wasm.preparePhoto)) path = 'native'
  if (path === 'hybrid') return { path, ...(await hybrid(bytes, blob, request.maxSide, request.quality)) }
  if (path === 'wasm') return { path, ...wasmOnly(bytes, request.maxSide, request.quality) }
  return { path, ...(await native(blob, request.maxSide, request.quality)) }
}

// The worker's global scope, typed by hand: the app's tsconfig uses the DOM library.
const scope = self as unknown as {
  postMessage(message: PhotoResponse, transfer?: Transferable[]): void
  addEventListener(type: 'message', listener: (event: MessageEvent<PhotoRequest>) => void): void
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message || UNREADABLE
}

scope.addEventListener('message', async (event) => {
  const { id } = event.data
  try {
    const { bytes, width, height, path } = await prepare(event.data)
    // Hand over a buffer of exactly the JPEG (a wasm result may be a view on a larger one).
    const out = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice()
    scope.postMessage({ id, ok: true, bytes: out.buffer as ArrayBuffer, width, height, path }, [out.buffer as ArrayBuffer])
  } catch (error) {
    scope.postMessage({ id, ok: false, error: describe(error) })
  }
})
