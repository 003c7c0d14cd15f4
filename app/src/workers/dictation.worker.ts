//! The dictation worker: runs the wasm `DictationRecorder` on the microphone's Float32 chunks
//! as they arrive (anti-aliased resampling to 16 kHz inside the core). Each chunk gives 16-bit
//! PCM for the speech socket, posted to the page, which owns the WebSocket (so the connection
//! state and transcript live with the UI). Every second the WAV bytes so far move out of wasm
//! memory into IndexedDB (lib/outbox/recordings.ts: a closed tab loses at most a second, and
//! the browser keeps the bytes on disk rather than in memory), or into a Blob part when the
//! device cannot store them; at the end the core's final header is put in front of the
//! stored parts, so the WAV is ready at once.

import { recordingParts, writeRecordingPart } from '../lib/outbox/recordings'
import init, { DictationRecorder } from '../wasm/core_wasm_media.js'
import wasmUrl from '../wasm/core_wasm_media_bg.wasm?url'
import {
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
let parts: Blob[] = []
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

/** Keeps one part: on the device (in order), or in memory once the device has failed. */
function keepPart(part: Blob) {
  const target = stored
  if (!target) {
    parts.push(part)
    return
  }
  const seq = target.next++
  target.writes = target.writes.then(async () => {
    if (stored !== target) {
      parts.push(part)
      return
    }
    try {
      await writeRecordingPart(target.id, target.userId, seq, part)
      storedBytes += part.size
    } catch {
      // The device's storage is full or refused: keep this and the rest in memory.
      stored = null
      parts.push(part)
    }
  })
}

async function finish() {
  if (!recorder) return
  audio?.close()
  audio = null
  const rest = new Blob([recorder.finish() as Uint8Array<ArrayBuffer>])
  const header = recorder.wavHeader()
  const seconds = recorder.seconds()
  recorder.free()
  recorder = null
  keepPart(rest)
  let body: Blob[] = parts
  const target = stored
  if (target) {
    await target.writes
    // Parts read back from the device are kept on disk by the browser, not in memory.
    body = stored === target ? await recordingParts(target.id) : [...(await recordingParts(target.id)), ...parts]
  }
  const wav = new Blob([header as Uint8Array<ArrayBuffer>, ...body], { type: 'audio/wav' })
  parts = []
  stored = null
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
      takenAt = 0
      full = false
      storedBytes = 0
      stored = message.recording ? { ...message.recording, next: 0, writes: Promise.resolve() } : null
      audio = message.audio
      audio.onmessage = (chunk: MessageEvent<Float32Array | { type: 'end' }>) => {
        try {
          if (chunk.data instanceof Float32Array) onSamples(chunk.data)
          else if (chunk.data.type === 'end') void finish().catch((error: unknown) => scope.postMessage({ type: 'error', message: describe(error) }))
        } catch (error) {
          scope.postMessage({ type: 'error', message: describe(error) })
        }
      }
      scope.postMessage({ type: 'ready' })
    } else if (message.type === 'stop') {
      await finish()
    } else if (message.type === 'stats') {
      const blobBytes = parts.reduce((sum, part) => sum + part.size, 0)
      scope.postMessage({ type: 'stats', wasmBytes: wasmMemory?.buffer.byteLength ?? 0, blobBytes, storedBytes })
    }
  } catch (error) {
    scope.postMessage({ type: 'error', message: describe(error) })
  }
})
