//! The dictation worker: runs the wasm `DictationRecorder` on the microphone's Float32 chunks
//! as they arrive (anti-aliased resampling to 16 kHz inside the core). Each chunk gives 16-bit
//! PCM for the speech socket, posted to the page, which owns the WebSocket (so the connection
//! state and transcript live with the UI). Every few seconds the WAV bytes so far move out of
//! wasm memory into a Blob part; at the end the core's final header is put in front, so the
//! WAV is ready at once and memory stays about one WAV's size.

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

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function onSamples(samples: Float32Array) {
  if (!recorder || full) return
  const pcm = recorder.push(samples)
  if (pcm.byteLength > 0) scope.postMessage({ type: 'pcm', bytes: pcm.buffer as ArrayBuffer }, [pcm.buffer as ArrayBuffer])
  const seconds = recorder.seconds()
  if (seconds - takenAt >= SEGMENT_SECONDS) {
    parts.push(new Blob([recorder.takeWavBytes() as Uint8Array<ArrayBuffer>]))
    takenAt = seconds
  }
  scope.postMessage({ type: 'progress', seconds })
  if (recorder.isFull()) {
    full = true
    scope.postMessage({ type: 'full' })
  }
}

function finish() {
  if (!recorder) return
  audio?.close()
  audio = null
  const rest = recorder.finish()
  const header = recorder.wavHeader()
  const seconds = recorder.seconds()
  const wav = new Blob([header as Uint8Array<ArrayBuffer>, ...parts, rest as Uint8Array<ArrayBuffer>], {
    type: 'audio/wav',
  })
  recorder.free()
  recorder = null
  parts = []
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
      const blobBytes = parts.reduce((sum, part) => sum + part.size, 0)
      scope.postMessage({ type: 'stats', wasmBytes: wasmMemory?.buffer.byteLength ?? 0, blobBytes })
    }
  } catch (error) {
    scope.postMessage({ type: 'error', message: describe(error) })
  }
})
