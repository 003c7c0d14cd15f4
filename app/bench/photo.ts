//! The photo-preparation benchmark (issue 5): a 4000x3000 photo-like JPEG with EXIF (made
//! here, deterministically) shrunk to a longest side of 1600 by
//!   - ours: the app's photo worker on its default path, timed from the Blob to the JPEG
//!     bytes back on the page (so reading, transfer both ways and wasm start-up are in);
//!   - the other worker paths, `hybrid` (native decode + resize, wasm encode; with the resize
//!     in createImageBitmap or on the canvas), `wasm` (all in wasm) and `native` (all in the
//!     browser), from which the default was chosen (src/lib/photo-prep.ts);
//!   - native: createImageBitmap + OffscreenCanvas.convertToBlob('image/jpeg', 0.8) on the page;
//!   - browser-image-compression 2.0.2 (maxWidthOrHeight 1600, initialQuality 0.8,
//!     useWebWorker false: its worker would fetch its script from a CDN).
//! One warm-up, then 5 interleaved rounds; the median time of each is reported, with the
//! output bytes and SSIM.
//!
//! SSIM: luma (BT.601), 11x11 Gaussian window (sigma 1.5), K1 0.01, K2 0.03, mean over the
//! valid windows (Wang et al. 2004). The reference is an exact area average (box filter) of
//! the original's luma, decoded losslessly by the browser at full size. An area average is
//! neutral: it is none of the candidates' resamplers, so no candidate is scored against its
//! own resize.

import imageCompression from 'browser-image-compression'

import {
  DEFAULT_HYBRID_RESIZE,
  DEFAULT_PHOTO_PATH,
  MAX_PHOTO_SIDE,
  PHOTO_QUALITY,
  preparePhoto,
  type HybridResize,
  type PhotoPath,
} from '@/lib/photo-prep'

import { exifSegment, jpegFacts, withSegment } from '../../playwright/fixtures/photos'

const WIDTH = 4000
const HEIGHT = 3000

/** mulberry32: a small seeded generator, so the photo is the same on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A photo of a worksheet on a desk by a window: gradients, texture, writing and sensor noise. */
async function makePhoto(): Promise<Blob> {
  const rand = random(20261122)
  const canvas = new OffscreenCanvas(WIDTH, HEIGHT)
  const ctx = canvas.getContext('2d')!
  // Window light over a wooden desk.
  const light = ctx.createLinearGradient(0, 0, WIDTH, HEIGHT)
  light.addColorStop(0, '#c9a36b')
  light.addColorStop(0.6, '#8a6239')
  light.addColorStop(1, '#4d3219')
  ctx.fillStyle = light
  ctx.fillRect(0, 0, WIDTH, HEIGHT)
  // Wood grain.
  for (let i = 0; i < 900; i++) {
    ctx.strokeStyle = `rgba(${60 + rand() * 60}, ${35 + rand() * 30}, ${15 + rand() * 20}, ${0.1 + rand() * 0.25})`
    ctx.lineWidth = 1 + rand() * 6
    const y = rand() * HEIGHT
    ctx.beginPath()
    ctx.moveTo(0, y)
    for (let x = 0; x <= WIDTH; x += 250) ctx.lineTo(x, y + Math.sin(x / 400 + i) * 30 + (rand() - 0.5) * 20)
    ctx.stroke()
  }
  // The worksheet, slightly turned, with a soft shadow.
  ctx.save()
  ctx.translate(WIDTH / 2, HEIGHT / 2)
  ctx.rotate(-0.06)
  ctx.shadowColor = 'rgba(0,0,0,0.45)'
  ctx.shadowBlur = 60
  ctx.shadowOffsetX = 25
  ctx.shadowOffsetY = 35
  const paper = ctx.createLinearGradient(-1400, -1300, 1400, 1300)
  paper.addColorStop(0, '#fbfaf4')
  paper.addColorStop(1, '#d9d5c8')
  ctx.fillStyle = paper
  ctx.fillRect(-1300, -1250, 2600, 2500)
  ctx.shadowColor = 'transparent'
  // Ruled lines and handwriting-like words.
  for (let line = 0; line < 30; line++) {
    const y = -1100 + line * 78
    ctx.strokeStyle = 'rgba(80,120,200,0.5)'
    ctx.lineWidth = 3
    ctx.beginPath()
    ctx.moveTo(-1200, y)
    ctx.lineTo(1200, y)
    ctx.stroke()
    let x = -1150
    ctx.fillStyle = line % 7 === 3 ? '#b3261e' : '#1d2a5b'
    while (x < 1050 && rand() > 0.04) {
      const word = Array.from({ length: 2 + Math.floor(rand() * 7) }, () =>
        String.fromCharCode(97 + Math.floor(rand() * 26)),
      ).join('')
      ctx.font = `${italic(rand)} ${46 + Math.floor(rand() * 10)}px serif`
      ctx.fillText(word, x, y - 12 + (rand() - 0.5) * 8)
      x += ctx.measureText(word).width + 22 + rand() * 20
    }
  }
  // A drawn diagram: circles and a graph.
  for (let i = 0; i < 40; i++) {
    ctx.strokeStyle = `hsl(${rand() * 360}, 60%, 35%)`
    ctx.lineWidth = 4
    ctx.beginPath()
    ctx.arc(600 + rand() * 500, -900 + rand() * 500, 20 + rand() * 120, 0, Math.PI * 2)
    ctx.stroke()
  }
  ctx.restore()
  // A pencil and an eraser on the desk.
  ctx.fillStyle = '#e8b923'
  ctx.save()
  ctx.translate(3500, 600)
  ctx.rotate(1.2)
  ctx.fillRect(-700, -30, 1400, 60)
  ctx.fillStyle = '#f2c9a0'
  ctx.fillRect(700, -30, 120, 60)
  ctx.restore()
  ctx.fillStyle = '#d9607a'
  ctx.fillRect(250, 2500, 330, 170)

  // Sensor noise and vignetting, as in a phone photo.
  const image = ctx.getImageData(0, 0, WIDTH, HEIGHT)
  const data = image.data
  for (let y = 0; y < HEIGHT; y++) {
    const dy = (y - HEIGHT / 2) / HEIGHT
    for (let x = 0; x < WIDTH; x++) {
      const dx = (x - WIDTH / 2) / WIDTH
      const vignette = 1 - 0.35 * (dx * dx + dy * dy)
      const noise = (rand() + rand() - 1) * 14
      const at = (y * WIDTH + x) * 4
      data[at] = data[at] * vignette + noise
      data[at + 1] = data[at + 1] * vignette + noise
      data[at + 2] = data[at + 2] * vignette + noise * 1.3
    }
  }
  ctx.putImageData(image, 0, 0)
  const jpeg = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 })).arrayBuffer())
  // EXIF as a phone writes it: camera make, orientation 1, GPS position.
  return new Blob([withSegment(jpeg, exifSegment({ orientation: 1, gps: true })) as BlobPart], { type: 'image/jpeg' })
}

function italic(rand: () => number) {
  return rand() > 0.5 ? 'italic' : 'normal'
}

/** The luma plane (BT.601) of a decoded image. */
async function lumaOf(blob: Blob): Promise<{ luma: Float32Array; width: number; height: number }> {
  const bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' })
  const { width, height } = bitmap
  const ctx = new OffscreenCanvas(width, height).getContext('2d', { willReadFrequently: true })!
  ctx.drawImage(bitmap, 0, 0)
  bitmap.close()
  const data = ctx.getImageData(0, 0, width, height).data
  const luma = new Float32Array(width * height)
  for (let i = 0, p = 0; i < luma.length; i++, p += 4) luma[i] = 0.299 * data[p] + 0.587 * data[p + 1] + 0.114 * data[p + 2]
  return { luma, width, height }
}

/** Exact area-average resampling weights from `from` samples to `to` samples. */
function boxWeights(from: number, to: number) {
  const scale = from / to
  return Array.from({ length: to }, (_, i) => {
    const start = i * scale
    const end = start + scale
    const first = Math.floor(start)
    const weights: number[] = []
    for (let s = first; s < Math.min(from, Math.ceil(end)); s++)
      weights.push((Math.min(end, s + 1) - Math.max(start, s)) / scale)
    return { first, weights }
  })
}

function boxResize(src: Float32Array, width: number, height: number, toWidth: number, toHeight: number): Float32Array {
  const across = boxWeights(width, toWidth)
  const down = boxWeights(height, toHeight)
  const rows = new Float32Array(toWidth * height)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < toWidth; x++) {
      const { first, weights } = across[x]
      let sum = 0
      for (let k = 0; k < weights.length; k++) sum += src[y * width + first + k] * weights[k]
      rows[y * toWidth + x] = sum
    }
  const out = new Float32Array(toWidth * toHeight)
  for (let y = 0; y < toHeight; y++) {
    const { first, weights } = down[y]
    for (let x = 0; x < toWidth; x++) {
      let sum = 0
      for (let k = 0; k < weights.length; k++) sum += rows[(first + k) * toWidth + x] * weights[k]
      out[y * toWidth + x] = sum
    }
  }
  return out
}

const KERNEL = (() => {
  const k = Array.from({ length: 11 }, (_, i) => Math.exp(-((i - 5) ** 2) / (2 * 1.5 * 1.5)))
  const total = k.reduce((a, b) => a + b, 0)
  return k.map((v) => v / total)
})()

/** Gaussian-filtered `src` over the valid region ((w-10) x (h-10)). */
function blur(src: Float32Array, width: number, height: number): Float32Array {
  const w = width - 10
  const h = height - 10
  const rows = new Float32Array(w * height)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < w; x++) {
      let sum = 0
      for (let k = 0; k < 11; k++) sum += src[y * width + x + k] * KERNEL[k]
      rows[y * w + x] = sum
    }
  const out = new Float32Array(w * h)
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let sum = 0
      for (let k = 0; k < 11; k++) sum += rows[(y + k) * w + x] * KERNEL[k]
      out[y * w + x] = sum
    }
  return out
}

/** Mean SSIM of two luma planes of the same size. */
function ssim(a: Float32Array, b: Float32Array, width: number, height: number): number {
  const c1 = (0.01 * 255) ** 2
  const c2 = (0.03 * 255) ** 2
  const aa = new Float32Array(a.length)
  const bb = new Float32Array(a.length)
  const ab = new Float32Array(a.length)
  for (let i = 0; i < a.length; i++) {
    aa[i] = a[i] * a[i]
    bb[i] = b[i] * b[i]
    ab[i] = a[i] * b[i]
  }
  const [muA, muB, sAA, sBB, sAB] = [a, b, aa, bb, ab].map((plane) => blur(plane, width, height))
  let total = 0
  for (let i = 0; i < muA.length; i++) {
    const ma = muA[i]
    const mb = muB[i]
    const varA = sAA[i] - ma * ma
    const varB = sBB[i] - mb * mb
    const cov = sAB[i] - ma * mb
    total += ((2 * ma * mb + c1) * (2 * cov + c2)) / ((ma * ma + mb * mb + c1) * (varA + varB + c2))
  }
  return total / muA.length
}

interface Output {
  bytes: number
  blob: Blob
  /** The worker path that really ran (a worker path falls back to native without the wasm encoder). */
  path?: PhotoPath
  /** Milliseconds per stage inside the worker. */
  stages?: Record<string, number>
}

type Method = { name: string; run(photo: Blob): Promise<Output> }

function workerMethod(name: string, path: PhotoPath, quality = PHOTO_QUALITY, resize?: HybridResize): Method {
  return {
    name,
    async run(photo) {
      const out = await preparePhoto(photo, { path, quality, resize })
      const blob = new Blob([out.bytes as BlobPart], { type: 'image/jpeg' })
      return { bytes: out.bytes.length, blob, path: out.path, stages: out.stages }
    },
  }
}

const native: Method = {
  name: 'native (createImageBitmap + convertToBlob 0.8)',
  async run(photo) {
    const bitmap = await createImageBitmap(photo, { imageOrientation: 'from-image' })
    const scale = Math.min(1, MAX_PHOTO_SIDE / Math.max(bitmap.width, bitmap.height))
    const canvas = new OffscreenCanvas(Math.round(bitmap.width * scale), Math.round(bitmap.height * scale))
    const ctx = canvas.getContext('2d')!
    ctx.imageSmoothingQuality = 'high'
    ctx.drawImage(bitmap, 0, 0, canvas.width, canvas.height)
    bitmap.close()
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.8 })
    return { bytes: blob.size, blob }
  },
}

const compression: Method = {
  name: 'browser-image-compression 2.0.2',
  async run(photo) {
    const file = new File([photo], 'photo.jpg', { type: 'image/jpeg' })
    const blob = await imageCompression(file, { maxWidthOrHeight: MAX_PHOTO_SIDE, useWebWorker: false, initialQuality: 0.8 })
    return { bytes: blob.size, blob }
  },
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

function collectGarbage() {
  ;(globalThis as { gc?: () => void }).gc?.()
}

export interface PhotoBenchResult {
  original: { bytes: number; width: number; height: number; metadata: string[]; gps: boolean }
  defaultPath: PhotoPath
  quality: number
  methods: {
    name: string
    medianMs: number
    runsMs: number[]
    bytes: number
    ssim: number
    width: number
    height: number
    metadata: string[]
    path?: PhotoPath
    /** Median milliseconds per stage inside the worker. */
    stages?: Record<string, number>
  }[]
  sweep: { quality: number; bytes: number; ssim: number; path?: PhotoPath }[]
}

async function runPhotoBench({ rounds = 5, sweep = [70, 72, 74, 76, 78, 80, 82, 84, 86] } = {}): Promise<PhotoBenchResult> {
  const log = (line: string) => (document.getElementById('out')!.textContent += `${line}\n`)
  const photo = await makePhoto()
  const facts = jpegFacts(new Uint8Array(await photo.arrayBuffer()))!
  log(`original: ${photo.size} bytes, ${facts.width}x${facts.height}, ${facts.metadata.join(', ')}`)

  const methods: Method[] = [
    workerMethod(`ours (worker, default path: ${DEFAULT_PHOTO_PATH})`, DEFAULT_PHOTO_PATH),
    native,
    compression,
    ...(['hybrid', 'wasm', 'native'] as const)
      .filter((path) => path !== DEFAULT_PHOTO_PATH)
      .map((path) => workerMethod(`candidate: ${path} (worker)`, path)),
    // The other place for the hybrid path's resize.
    ...(['bitmap', 'canvas'] as const)
      .filter((resize) => resize !== DEFAULT_HYBRID_RESIZE)
      .map((resize) => workerMethod(`candidate: hybrid, ${resize} resize (worker)`, 'hybrid', PHOTO_QUALITY, resize)),
  ]
  const times = methods.map(() => [] as number[])
  const stages = methods.map(() => [] as Record<string, number>[])
  const outputs: Output[] = []
  // Warm-up: starts the worker and the wasm, and fills the browser's caches.
  for (const [i, method] of methods.entries()) outputs[i] = await method.run(photo)
  for (let round = 0; round < rounds; round++) {
    // Interleaved, and rotated each round so no method always runs first.
    for (let k = 0; k < methods.length; k++) {
      const i = (k + round) % methods.length
      collectGarbage()
      const start = performance.now()
      outputs[i] = await methods[i].run(photo)
      times[i].push(performance.now() - start)
      if (outputs[i].stages) stages[i].push(outputs[i].stages!)
    }
    log(`round ${round + 1} done`)
  }

  // Quality: each output against the area-average reference.
  const source = await lumaOf(photo)
  const first = await lumaOf(outputs[0].blob)
  const reference = boxResize(source.luma, source.width, source.height, first.width, first.height)
  const score = async (blob: Blob) => {
    const out = await lumaOf(blob)
    if (out.width !== first.width || out.height !== first.height) return { ssim: NaN, ...out }
    return { ssim: ssim(reference, out.luma, out.width, out.height), ...out }
  }
  const results: PhotoBenchResult['methods'] = []
  for (const [i, method] of methods.entries()) {
    const scored = await score(outputs[i].blob)
    const meta = jpegFacts(new Uint8Array(await outputs[i].blob.arrayBuffer()))!
    results.push({
      name: method.name,
      medianMs: median(times[i]),
      runsMs: times[i].map((t) => Math.round(t)),
      bytes: outputs[i].bytes,
      ssim: scored.ssim,
      width: scored.width,
      height: scored.height,
      metadata: meta.metadata,
      path: outputs[i].path,
      stages: stages[i].length
        ? Object.fromEntries(Object.keys(stages[i][0]).map((k) => [k, Math.round(median(stages[i].map((s) => s[k])))]))
        : undefined,
    })
    log(`${method.name}: ${Math.round(median(times[i]))} ms, ${outputs[i].bytes} bytes, SSIM ${scored.ssim.toFixed(4)}`)
  }

  // The quality sweep of the default path, to tune PHOTO_QUALITY against native's SSIM and bytes.
  const sweepResults: PhotoBenchResult['sweep'] = []
  for (const quality of sweep) {
    const out = await workerMethod('sweep', DEFAULT_PHOTO_PATH, quality).run(photo)
    sweepResults.push({ quality, bytes: out.bytes, ssim: (await score(out.blob)).ssim, path: out.path })
  }

  return {
    original: { bytes: photo.size, width: facts.width, height: facts.height, metadata: facts.metadata, gps: facts.gps },
    defaultPath: DEFAULT_PHOTO_PATH,
    quality: PHOTO_QUALITY,
    methods: results,
    sweep: sweepResults,
  }
}

declare global {
  interface Window {
    runPhotoBench: typeof runPhotoBench
  }
}
window.runPhotoBench = runPhotoBench
document.getElementById('out')!.textContent = 'ready\n'
