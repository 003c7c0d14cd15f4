//! The messages between the dictation drawer and workers/dictation.worker.ts.

export type ToDictationWorker =
  /** Start a recording of audio at `sampleRate` Hz arriving on `audio` (see lib/audio-capture.ts). */
  | {
      type: 'start'
      sampleRate: number
      maxSeconds: number
      audio: MessagePort
      /** Where to keep each second of WAV data on the device (lib/outbox/recordings.ts). */
      recording?: { id: string; userId: string }
    }
  /** Finish now (when the 'end' marker cannot come), and answer 'done'. */
  | { type: 'stop' }
  /** How much memory the recording holds (answered with 'stats'; for the benchmark). */
  | { type: 'stats' }

export type FromDictationWorker =
  /** The wasm recorder is ready for audio. */
  | { type: 'ready' }
  /** New 16 kHz, 16-bit little-endian mono PCM for the speech socket (never empty). */
  | { type: 'pcm'; bytes: ArrayBuffer }
  /** Seconds of audio recorded so far. */
  | { type: 'progress'; seconds: number }
  /** The recording reached its limit; nothing more is kept. */
  | { type: 'full' }
  /** The whole recording as one audio/wav Blob. */
  | { type: 'done'; wav: Blob; seconds: number }
  | { type: 'error'; message: string }
  /** The wasm memory's size, the bytes held in Blob parts in memory and those kept on the device. */
  | { type: 'stats'; wasmBytes: number; blobBytes: number; storedBytes: number }

/**
 * A WAV segment moves out of wasm memory this often (seconds of audio): into IndexedDB, so a
 * closed tab loses at most this much, or into a Blob part where the device cannot keep it.
 */
export const SEGMENT_SECONDS = 1

/**
 * Frees an audio buffer's memory now rather than at the next garbage collection: detached
 * by `ArrayBuffer.prototype.transfer(0)` where the browser has it. A second of audio arrives
 * as a fresh buffer (192 kB at 48 kHz); V8 collects such buffers only once tens of megabytes
 * of them have piled up, which was most of a 15-minute dictation's memory.
 */
export function releaseBuffer(buffer: ArrayBufferLike): void {
  const transfer = (buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer
  if (typeof transfer !== 'function' || buffer.byteLength === 0) return
  try {
    transfer.call(buffer, 0)
  } catch {
    // Not transferable (shared, or already detached): left to the collector.
  }
}
