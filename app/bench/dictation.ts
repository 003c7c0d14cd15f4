// 15 minutes of 48 kHz microphone audio to one 16 kHz WAV, two ways, in one page:
//  (a) ours: the product's dictation worker (wasm DictationRecorder: rubato resampling as
//      the audio arrives, WAV segments moved into Blob parts every few seconds, header at
//      the end), fed 1 s chunks over a MessagePort exactly as the AudioWorklet does;
//  (b) a plain-JavaScript baseline: keep the Float32 chunks, and at stop interpolate
//      linearly to 16 kHz and write the WAV with a DataView.
// For each: stop-to-WAV ms (stop pressed -> audio/wav Blob in hand) and peak memory (JS heap
// above the starting point, sampled during the run, plus for ours the worker's wasm memory
// and the bytes of Blob parts held in memory: parts the device has written are its copies,
// kept on disk, and do not count). The Playwright side (playwright/bench/dictation.bench.ts)
// also reads the Chromium processes' own memory from /proc, which counts everything. Needs --enable-precise-memory-info and
// --js-flags=--expose-gc (playwright/bench.config.ts).

import { releaseBuffer, type FromDictationWorker, type ToDictationWorker } from '../src/lib/dictation-protocol'

const INPUT_RATE = 48_000
const CHUNK_SECONDS = 1

interface Figures {
  stopToWavMs: number
  peakBytes: number
  peakHeapBytes: number
  peakWasmBytes: number
  peakBlobBytes: number
  /** While recording: WAV parts held in memory, and those kept on the device (IndexedDB). */
  partsInMemoryBytes?: number
  storedBytes?: number
  wavBytes: number
  wavSeconds: number
}

export interface DictationBenchResult {
  seconds: number
  chunkSeconds: number
  ours: Figures
  baseline: Figures
}

declare global {
  interface Window {
    runDictationBench(options?: { seconds?: number; only?: 'ours' | 'baseline'; pace?: number; keep?: boolean }): Promise<DictationBenchResult>
    gc?: () => void
  }
  interface Performance {
    memory?: { usedJSHeapSize: number }
  }
}

/** One minute of speech-like sound: a gliding voiced tone with syllable envelope and noise. */
function makeMinute(): Float32Array {
  const samples = new Float32Array(INPUT_RATE * 60)
  let phase = 0
  let seed = 1
  for (let i = 0; i < samples.length; i++) {
    const t = i / INPUT_RATE
    const pitch = 140 + 40 * Math.sin(2 * Math.PI * 0.7 * t)
    phase += (2 * Math.PI * pitch) / INPUT_RATE
    const syllables = Math.max(0, Math.sin(2 * Math.PI * 3.5 * t))
    seed = (seed * 1_103_515_245 + 12_345) >>> 0
    const noise = (seed / 0xffffffff - 0.5) * 0.02
    samples[i] = 0.4 * syllables * (Math.sin(phase) + 0.3 * Math.sin(3 * phase)) + noise
  }
  return samples
}

const heap = () => performance.memory?.usedJSHeapSize ?? 0
const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

async function collect() {
  window.gc?.()
  await settle()
  window.gc?.()
}

/** (a) The product's worker. */
async function runOurs(minute: Float32Array, seconds: number, pace: number, keep: boolean): Promise<Figures> {
  const worker = new Worker(new URL('../src/workers/dictation.worker.ts', import.meta.url), { type: 'module' })
  const channel = new MessageChannel()
  let waiting: ((message: FromDictationWorker) => void) | null = null
  const next = (type: FromDictationWorker['type']) =>
    new Promise<FromDictationWorker>((resolve, reject) => {
      waiting = (message) => {
        if (message.type === 'error') reject(new Error(message.message))
        else if (message.type === type) {
          waiting = null
          resolve(message)
        }
      }
    })
  worker.onmessage = (event: MessageEvent<FromDictationWorker>) => {
    // The PCM for the speech socket: the drawer sends it and frees it (dictation-session.ts).
    if (event.data.type === 'pcm') releaseBuffer(event.data.bytes)
    waiting?.(event.data)
  }
  worker.onerror = (event) => waiting?.({ type: 'error', message: event.message || 'the worker failed' })
  const post = (message: ToDictationWorker, transfer: Transferable[] = []) => worker.postMessage(message, transfer)

  const ready = next('ready')
  // As the app records: each second's WAV data kept on the device (IndexedDB), not in memory.
  const recording = keep ? { id: `bench-${Date.now()}`, userId: 'bench' } : undefined
  post({ type: 'start', sampleRate: INPUT_RATE, maxSeconds: seconds + 60, audio: channel.port2, recording }, [channel.port2])
  await ready
  await collect()
  const heapStart = heap()
  let peakHeap = 0
  let peakWasm = 0
  let peakBlob = 0
  // Of those: the parts held in memory while recording, and those the device keeps on disk.
  let peakPartsInMemory = 0
  let storedOnDevice = 0
  let peakTotal = 0
  const sample = async () => {
    const statsAnswer = next('stats')
    post({ type: 'stats' })
    const stats = (await statsAnswer) as Extract<FromDictationWorker, { type: 'stats' }>
    const heapNow = Math.max(0, heap() - heapStart)
    peakHeap = Math.max(peakHeap, heapNow)
    peakWasm = Math.max(peakWasm, stats.wasmBytes)
    peakBlob = Math.max(peakBlob, stats.blobBytes)
    peakPartsInMemory = Math.max(peakPartsInMemory, stats.blobBytes)
    storedOnDevice = stats.storedBytes ?? 0
    peakTotal = Math.max(peakTotal, heapNow + stats.wasmBytes + stats.blobBytes)
  }

  const chunk = INPUT_RATE * CHUNK_SECONDS
  const begun = performance.now()
  for (let second = 0; second < seconds; second += CHUNK_SECONDS) {
    // A microphone gives a second a second; `pace` runs that many times faster.
    const due = begun + (second * 1000) / pace
    if (performance.now() < due) await new Promise((resolve) => setTimeout(resolve, due - performance.now()))
    const at = (second % 60) * INPUT_RATE
    const samples = minute.slice(at, at + chunk) // a fresh copy, transferred like the worklet's
    const progressed = next('progress')
    channel.port1.postMessage(samples, [samples.buffer])
    await progressed // one chunk in flight at a time: the worker keeps up, as in real time
    if (second % 10 === 0) await sample()
  }
  await sample()

  const done = next('done')
  const stoppedAt = performance.now()
  channel.port1.postMessage({ type: 'end' })
  const result = (await done) as Extract<FromDictationWorker, { type: 'done' }>
  const stopToWavMs = performance.now() - stoppedAt
  peakHeap = Math.max(peakHeap, heap() - heapStart)
  // The WAV is the header before the parts where they were at stop: those the device had
  // written are its copies (on disk); the rest (the last second or two) are in memory.
  const wavInMemory = result.wav.size - storedOnDevice
  peakTotal = Math.max(peakTotal, heap() - heapStart + peakWasm + wavInMemory)
  worker.terminate()
  return {
    stopToWavMs,
    peakBytes: peakTotal,
    peakHeapBytes: peakHeap,
    peakWasmBytes: peakWasm,
    peakBlobBytes: Math.max(peakBlob, wavInMemory),
    partsInMemoryBytes: peakPartsInMemory,
    storedBytes: storedOnDevice,
    wavBytes: result.wav.size,
    wavSeconds: result.seconds,
  }
}

/** (b) Plain JavaScript: keep every chunk, convert at stop. */
async function runBaseline(minute: Float32Array, seconds: number): Promise<Figures> {
  await collect()
  const heapStart = heap()
  let peakHeap = 0
  const chunks: Float32Array[] = []
  const chunk = INPUT_RATE * CHUNK_SECONDS
  for (let second = 0; second < seconds; second += CHUNK_SECONDS) {
    const at = (second % 60) * INPUT_RATE
    chunks.push(minute.slice(at, at + chunk))
    if (second % 10 === 0) {
      await settle()
      peakHeap = Math.max(peakHeap, heap() - heapStart)
    }
  }
  const stoppedAt = performance.now()
  const inputFrames = chunks.length * chunk
  const outputFrames = Math.floor((inputFrames * 16_000) / INPUT_RATE)
  const buffer = new ArrayBuffer(44 + outputFrames * 2)
  const view = new DataView(buffer)
  const text = (at: number, value: string) => {
    for (let i = 0; i < value.length; i++) view.setUint8(at + i, value.charCodeAt(i))
  }
  text(0, 'RIFF')
  view.setUint32(4, 36 + outputFrames * 2, true)
  text(8, 'WAVE')
  text(12, 'fmt ')
  view.setUint32(16, 16, true)
  view.setUint16(20, 1, true)
  view.setUint16(22, 1, true)
  view.setUint32(24, 16_000, true)
  view.setUint32(28, 32_000, true)
  view.setUint16(32, 2, true)
  view.setUint16(34, 16, true)
  text(36, 'data')
  view.setUint32(40, outputFrames * 2, true)
  const ratio = INPUT_RATE / 16_000
  const sampleAt = (index: number) => chunks[Math.floor(index / chunk)]?.[index % chunk] ?? 0
  for (let i = 0; i < outputFrames; i++) {
    const position = i * ratio
    const left = Math.floor(position)
    const fraction = position - left
    const value = sampleAt(left) * (1 - fraction) + sampleAt(left + 1) * fraction
    const clamped = Math.max(-1, Math.min(1, value))
    view.setInt16(44 + i * 2, clamped < 0 ? clamped * 0x8000 : clamped * 0x7fff, true)
  }
  const wav = new Blob([buffer], { type: 'audio/wav' })
  const stopToWavMs = performance.now() - stoppedAt
  peakHeap = Math.max(peakHeap, heap() - heapStart)
  chunks.length = 0
  return {
    stopToWavMs,
    peakBytes: peakHeap,
    peakHeapBytes: peakHeap,
    peakWasmBytes: 0,
    peakBlobBytes: wav.size,
    wavBytes: wav.size,
    wavSeconds: outputFrames / 16_000,
  }
}

/** Figures of a method that was not run (`only` chose the other). */
const notRun: Figures = { stopToWavMs: 0, peakBytes: 0, peakHeapBytes: 0, peakWasmBytes: 0, peakBlobBytes: 0, wavBytes: 0, wavSeconds: 0 }

window.runDictationBench = async ({ seconds = 15 * 60, only, pace = Infinity, keep = true } = {}) => {
  const minute = makeMinute()
  const ours = only === 'baseline' ? notRun : await runOurs(minute, seconds, pace, keep)
  const baseline = only === 'ours' ? notRun : await runBaseline(minute, seconds)
  const result = { seconds, chunkSeconds: CHUNK_SECONDS, ours, baseline }
  const out = document.getElementById('out')
  if (out) out.textContent = JSON.stringify(result, null, 2)
  return result
}
