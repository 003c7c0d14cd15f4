//! The module worker that prepares photos (src/lib/photo-prep.ts): EXIF orientation, longest
//! side at most `maxSide`, JPEG without metadata. It loads the core's media build
//! (core_wasm_media: the rules plus photo and audio code; scripts/build-web.sh). Every failure
//! becomes a readable message, never an uncaught error.

import init, * as core from '../wasm/core_wasm_media.js'
import wasmUrl from '../wasm/core_wasm_media_bg.wasm?url'
import { jpegSize, stripMetadata } from '../lib/jpeg'
import type { HybridResize, PhotoPath, PhotoRequest, PhotoResponse } from '../lib/photo-prep'

/** The core's photo bindings (core-wasm/src/media_bindings.rs), looked up at run time so the app
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

/** EXIF and the frame header sit at the start of a JPEG: reading them needs only this much. */
const HEADER_BYTES = 256 * 1024

/** The upright size of the photo: from the wasm header reader when it can, else by decoding. */
async function uprightSize(blob: Blob): Promise<{ width: number; height: number }> {
  if (wasm.photoInfo) {
    try {
      const head = new Uint8Array(await blob.slice(0, HEADER_BYTES).arrayBuffer())
      let info
      try {
        info = wasm.photoInfo(head)
      } catch (error) {
        if (blob.size <= HEADER_BYTES) throw error
        info = wasm.photoInfo(new Uint8Array(await blob.arrayBuffer())) // a header past the first 256 KB
      }
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

/** A 2D context; `readBack` keeps the canvas in memory the CPU reads (getImageData) rather
 *  than on the GPU, which would make the read slow. */
function context(canvas: OffscreenCanvas, readBack: boolean): OffscreenCanvasRenderingContext2D {
  const ctx = canvas.getContext('2d', { willReadFrequently: readBack })
  if (!ctx) throw new Error('This browser cannot prepare photos (no 2D canvas in workers).')
  return ctx
}

/** Native decode + orientation + resize, wasm 4:2:0 encode. */
async function hybrid(blob: Blob, maxSide: number, quality: number, resize: HybridResize) {
  const started = performance.now()
  let bitmap: ImageBitmap
  let width: number
  let height: number
  if (resize === 'bitmap') {
    const upright = await uprightSize(blob)
    const target = fit(upright.width, upright.height, maxSide)
    bitmap = await decode(blob, { resizeWidth: target.width, resizeHeight: target.height, resizeQuality: 'high' })
    ;({ width, height } = bitmap)
  } else {
    bitmap = await decode(blob)
    ;({ width, height } = fit(bitmap.width, bitmap.height, maxSide))
  }
  const decoded = performance.now()
  const canvas = new OffscreenCanvas(width, height)
  const ctx = context(canvas, true)
  ctx.imageSmoothingQuality = 'high'
  ctx.drawImage(bitmap, 0, 0, width, height)
  bitmap.close()
  const pixels = ctx.getImageData(0, 0, width, height).data
  const read = performance.now()
  const jpeg = wasm.encodeJpeg!(new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength), width, height, quality)
  const stages = { decodeAndResize: decoded - started, readPixels: read - decoded, encode: performance.now() - read }
  return { bytes: jpeg, width, height, stages }
}

/** Everything in wasm. */
async function wasmOnly(blob: Blob, maxSide: number, quality: number) {
  const started = performance.now()
  const bytes = new Uint8Array(await blob.arrayBuffer())
  const jpeg = wasm.preparePhoto!(bytes, maxSide, quality)
  const size = jpegSize(jpeg) ?? { width: 0, height: 0 }
  return { bytes: jpeg, ...size, stages: { all: performance.now() - started } }
}

/** Everything in the browser: the benchmark's baseline and the fallback. */
async function native(blob: Blob, maxSide: number, quality: number) {
  const started = performance.now()
  const bitmap = await decode(blob)
  const decoded = performance.now()
  const { width, height } = fit(bitmap.width, bitmap.height, maxSide)
  const canvas = new OffscreenCanvas(width, height)
  const ctx = context(canvas, false)
  ctx.imageSmoothingQuality = 'high'
  ctx.drawImage(bitmap, 0, 0, width, height)
  bitmap.close()
  const resized = performance.now()
  const out = await canvas.convertToBlob({ type: 'image/jpeg', quality: quality / 100 })
  // The canvas never carries EXIF; this drops the colour profile (APP2) it adds, too.
  const bytes = stripMetadata(new Uint8Array(await out.arrayBuffer()))
  const stages = { decode: decoded - started, resize: resized - decoded, encode: performance.now() - resized }
  return { bytes, width, height, stages }
}


async function run(path: PhotoPath, request: PhotoRequest) {
  const { photo, maxSide, quality } = request
  if (path === 'hybrid') return { path, ...(await hybrid(photo, maxSide, quality, request.resize)) }
  if (path === 'wasm') return { path, ...(await wasmOnly(photo, maxSide, quality)) }
  return { path, ...(await native(photo, maxSide, quality)) }
}

async function prepare(request: PhotoRequest) {
  const loaded = await initCore()
  const tooBig = loaded ? wasm.uploadSizeError?.(request.photo.size) : undefined
  if (tooBig) throw new Error(tooBig)
  let path: PhotoPath = request.path
  if (path === 'hybrid' && !(loaded && wasm.encodeJpeg)) path = 'native'
  if (path === 'wasm' && !(loaded && wasm.preparePhoto)) path = 'native'
  try {
    return await run(path, request)
  } catch (error) {
    // What the browser cannot decode, the core may still read (it handles every JPEG and
    // PNG itself, orientation included).
    if (path === 'wasm' || !(loaded && wasm.preparePhoto)) throw error
    try {
      return await run('wasm', request)
    } catch {
      throw error
    }
  }
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
    const { bytes, width, height, path, stages } = await prepare(event.data)
    // Hand over a buffer of exactly the JPEG (a wasm result may be a view on a larger one).
    const out = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice()
    scope.postMessage({ id, ok: true, bytes: out.buffer as ArrayBuffer, width, height, path, stages }, [
      out.buffer as ArrayBuffer,
    ])
  } catch (error) {
    scope.postMessage({ id, ok: false, error: describe(error) })
  }
})
