//! The dictation worker: runs the wasm `DictationRecorder` on the microphone's Float32 chunks
//! as they arrive (anti-aliased resampling to 16 kHz inside the core). Each chunk gives 16-bit
//! PCM for the speech socket, posted to the page, which owns the WebSocket (so the connection
//! state and transcript live with the UI). Every second the WAV bytes so far move out of wasm
//! memory into a Blob part and on to IndexedDB (lib/outbox/recordings.ts: a closed tab loses
//! at most a second); once written, the part is swapped for the device's copy, which the
//! browser keeps on disk, so memory stays about a second of audio. At the end the core's
//! final header is put in front of the parts, so the WAV is ready at once.

import { writeRecordingPart } from '../lib/outbox/recordings'
import init, { DictationRecorder } from '../wasm/core_wasm_media.js'
import wasmUrl from '../wasm/core_wasm_media_bg.wasm?url'
import {
  releaseBuffer,
  SEGMENT_SECONDS,
  type FromDictationWorker,
  type ToDictationWorker,
} from '../lib/dictation-protocol'

// The worker's global scope, typed by hand: the app's tsconfig uses the DOM library.
const scope = self as unknown as {
  postMessage(message: FromDictationWorker, transfer?: Transferable[]): void
  addEventListener(type: 'message', listener: (event: MessageEvent<ToDictationWorker>) => void): void
}

let wasmMemory: WebAssembly.Memory | null = null
let recorder: DictationRecorder | null = null
let audio: MessagePort | null = null
/** Every part so far, in order: in memory until the device has it, then the device's copy. */
let parts: Blob[] = []
/** Bytes of `parts` still held in memory (for the stats). */
let memoryBytes = 0
let takenAt = 0
let full = false
/** Where parts go on the device, while that works. */
let stored: { id: string; userId: string; next: number; writes: Promise<void> } | null = null
/** Bytes of parts written to the device (for the stats). */
let storedBytes = 0

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function onSamples(samples: Float32Array) {
  if (!recorder || full) return
  const pcm = recorder.push(samples)
  // The core has copied the samples: their buffer is freed now, not at some later collection.
  releaseBuffer(samples.buffer)
  if (pcm.byteLength > 0) scope.postMessage({ type: 'pcm', bytes: pcm.buffer as ArrayBuffer }, [pcm.buffer as ArrayBuffer])
  const seconds = recorder.seconds()
  if (seconds - takenAt >= SEGMENT_SECONDS) {
    keepPart(new Blob([recorder.takeWavBytes() as Uint8Array<ArrayBuffer>]))
    takenAt = seconds
  }
  scope.postMessage({ type: 'progress', seconds })
  if (recorder.isFull()) {
    full = true
    scope.postMessage({ type: 'full' })
  }
}

/**
 * Keeps one part: in memory at first, then, once the device has written it, its copy there
 * (which the browser keeps on disk), so memory holds about the last second or two. Where the
 * device refuses (storage full), this and later parts stay in memory.
 */
function keepPart(part: Blob) {
  const seq = parts.length
  const held = parts
  held.push(part)
  memoryBytes += part.size
  const target = stored
  if (!target) return
  target.writes = target.writes.then(async () => {
    if (stored !== target) return
    try {
      const onDisk = await writeRecordingPart(target.id, target.userId, seq, part)
      storedBytes += part.size
      if (held[seq] === part && onDisk) {
        held[seq] = onDisk
        memoryBytes -= part.size
      }
    } catch {
      stored = null
    }
  })
}

/** The WAV at once: the header, then every part where it is now (on the device or in memory). */
function finish() {
  if (!recorder) return
  audio?.close()
  audio = null
  const rest = new Blob([recorder.finish() as Uint8Array<ArrayBuffer>])
  const header = recorder.wavHeader()
  const seconds = recorder.seconds()
  recorder.free()
  recorder = null
  keepPart(rest)
  const wav = new Blob([header as Uint8Array<ArrayBuffer>, ...parts], { type: 'audio/wav' })
  // Writes still queued carry on, so the device's copy is whole if the tab closes now.
  parts = []
  memoryBytes = 0
  scope.postMessage({ type: 'done', wav, seconds })
}

scope.addEventListener('message', async (event) => {
  const message = event.data
  try {
    if (message.type === 'start') {
      wasmMemory = (await init({ module_or_path: wasmUrl })).memory
      recorder?.free()
      recorder = new DictationRecorder(message.sampleRate, message.maxSeconds)
      parts = []
      memoryBytes = 0
      takenAt = 0
      full = false
      storedBytes = 0
      stored = message.recording ? { ...message.recording, next: 0, writes: Promise.resolve() } : null
      audio = message.audio
      audio.onmessage = (chunk: MessageEvent<Float32Array | { type: 'end' }>) => {
        try {
          if (chunk.data instanceof Float32Array) onSamples(chunk.data)
          else if (chunk.data.type === 'end') finish()
        } catch (error) {
          scope.postMessage({ type: 'error', message: describe(error) })
        }
      }
      scope.postMessage({ type: 'ready' })
    } else if (message.type === 'stop') {
      finish()
    } else if (message.type === 'stats') {
      const blobBytes = memoryBytes
      scope.postMessage({ type: 'stats', wasmBytes: wasmMemory?.buffer.byteLength ?? 0, blobBytes, storedBytes })
    }
  } catch (error) {
    scope.postMessage({ type: 'error', message: describe(error) })
  }
})
