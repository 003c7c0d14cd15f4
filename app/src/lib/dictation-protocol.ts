//! The messages between the dictation drawer and workers/dictation.worker.ts.

export type ToDictationWorker =
  /** Start a recording of audio at `sampleRate` Hz arriving on `audio` (see lib/audio-capture.ts). */
  | { type: 'start'; sampleRate: number; maxSeconds: number; audio: MessagePort }
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
  /** The wasm memory's size and the bytes already moved into Blob parts. */
  | { type: 'stats'; wasmBytes: number; blobBytes: number }

/** A WAV segment is moved out of wasm memory into a Blob part this often (seconds of audio). */
export const SEGMENT_SECONDS = 5
