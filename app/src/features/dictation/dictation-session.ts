//! One live dictation, outside React: the microphone (lib/audio-capture.ts) feeds the
//! dictation worker (wasm recorder: 16 kHz PCM + WAV), whose PCM this session streams to
//! the speech socket; transcripts come back. The drawer renders the state it reports.
//!
//! States are spec section 4's: microphone not set up, setting up, ready, opening, open,
//! error, pausing, paused; connection connecting, open, closing, closed.

import { errorMessage } from '@/lib/rpc'
import { openMicrophone, type AudioCapture } from '@/lib/audio-capture'
import { beginRecording, closeRecording, keepTranscript, recordingLock } from '@/lib/outbox/recordings'

import { appendFinal, KEEP_ALIVE_MS, listenUrl, readSpeechMessage } from './speech-socket'
import { releaseBuffer, type FromDictationWorker, type ToDictationWorker } from '@/lib/dictation-protocol'

export type MicrophoneState = 'not set up' | 'setting up' | 'ready' | 'opening' | 'open' | 'error' | 'pausing' | 'paused'
export type ConnectionState = 'connecting' | 'open' | 'closing' | 'closed'

export interface SpeechCredential {
  key: string
  scheme: 'bearer' | 'token'
  listenUrl: string
}

export interface DictationSnapshot {
  microphone: MicrophoneState
  connection: ConnectionState
  /** Final text so far, and the current interim guess after it. */
  transcript: string
  interim: string
  seconds: number
  /** Set once stopped: the whole recording as one WAV. */
  wav: Blob | null
  stopped: boolean
  /** Why the speech connection could not be used (the microphone's error has its own text). */
  connectionError: string | null
  /** The recording stopped itself at the time limit. */
  limitReached: boolean
}

/** Audio kept while the socket is still connecting, at most this many bytes (30 s). */
const MAX_QUEUED_BYTES = 30 * 32_000

export class DictationSession {
  private state: DictationSnapshot = {
    microphone: 'not set up',
    connection: 'connecting',
    transcript: '',
    interim: '',
    seconds: 0,
    wav: null,
    stopped: false,
    connectionError: null,
    limitReached: false,
  }
  private capture: AudioCapture | null = null
  private worker: Worker | null = null
  private socket: WebSocket | null = null
  private keepAlive: number | undefined
  private queued: ArrayBuffer[] = []
  private queuedBytes = 0
  private disposed = false
  private stopping = false
  private readonly onChange: (snapshot: DictationSnapshot) => void
  private readonly maxSeconds: number
  private readonly credential: () => Promise<SpeechCredential>
  private readonly userId: string | null
  /** The recording kept on the device while it is made (lib/outbox/recordings.ts). */
  private recordingId: string | null = null
  private releaseLock: (() => void) | null = null
  private transcriptTimer: ReturnType<typeof setTimeout> | undefined

  constructor(options: {
    maxSeconds: number
    credential: () => Promise<SpeechCredential>
    onChange: (snapshot: DictationSnapshot) => void
    /** The signed-in user, whose recording is kept on the device so a closed tab loses nothing. */
    userId?: string | null
  }) {
    this.maxSeconds = options.maxSeconds
    this.credential = options.credential
    this.onChange = options.onChange
    this.userId = options.userId ?? null
  }

  get snapshot(): DictationSnapshot {
    return this.state
  }

  private set(patch: Partial<DictationSnapshot>) {
    if (this.disposed) return
    this.state = { ...this.state, ...patch }
    this.onChange(this.state)
    if (patch.transcript !== undefined) this.keepTranscriptSoon()
  }

  /** Writes the transcript beside the recording at most once a second. */
  private keepTranscriptSoon() {
    if (!this.recordingId || this.transcriptTimer !== undefined) return
    this.transcriptTimer = setTimeout(() => {
      this.transcriptTimer = undefined
      const id = this.recordingId
      if (id) void keepTranscript(id, this.state.transcript).catch(() => undefined)
    }, 1_000)
  }

  /** Starts keeping the recording on the device, held by this tab (a Web Lock) until disposed. */
  private async keepRecording(): Promise<{ id: string; userId: string } | undefined> {
    if (!this.userId) return undefined
    try {
      const id = crypto.randomUUID()
      if (navigator.locks) {
        await new Promise<void>((held) => {
          void navigator.locks.request(recordingLock(id), () => {
            held()
            return new Promise<void>((release) => (this.releaseLock = release))
          })
        })
      }
      this.recordingId = id
      await beginRecording(id, this.userId)
      return { id, userId: this.userId }
    } catch {
      return undefined // the device cannot keep it: the recording lives in memory only
    }
  }

  /** Starts the microphone and the connection side by side. */
  start() {
    this.set({ microphone: 'setting up', connection: 'connecting' })
    void this.startMicrophone()
    void this.connect()
  }

  private async startMicrophone() {
    let capture: AudioCapture
    try {
      capture = await openMicrophone()
    } catch {
      this.set({ microphone: 'error' })
      this.closeSocket()
      return
    }
    if (this.disposed || this.stopping) {
      capture.close()
      return
    }
    this.capture = capture
    const recording = await this.keepRecording()
    if (this.disposed || this.stopping) {
      capture.close()
      this.capture = null
      this.forgetKept()
      return
    }
    const worker = new Worker(new URL('../../workers/dictation.worker.ts', import.meta.url), {
      type: 'module',
      name: 'voicemark-dictation',
    })
    this.worker = worker
    worker.addEventListener('message', (event: MessageEvent<FromDictationWorker>) => this.onWorker(event.data))
    worker.addEventListener('error', () => this.failMicrophone())
    const start: ToDictationWorker = {
      type: 'start',
      sampleRate: capture.sampleRate,
      maxSeconds: this.maxSeconds,
      audio: capture.audio,
      recording,
    }
    worker.postMessage(start, [capture.audio])
  }

  private failMicrophone() {
    this.capture?.close()
    this.capture = null
    this.worker?.terminate()
    this.worker = null
    this.set({ microphone: 'error' })
    this.closeSocket()
  }

  private onWorker(message: FromDictationWorker) {
    switch (message.type) {
      case 'ready':
        this.set({ microphone: 'ready' })
        this.set({ microphone: 'opening' })
        this.capture
          ?.start()
          .then(() => this.state.microphone === 'opening' && this.set({ microphone: 'open' }))
          .catch(() => this.failMicrophone())
        break
      case 'pcm':
        this.sendAudio(message.bytes)
        break
      case 'progress':
        this.set({ seconds: message.seconds })
        break
      case 'full':
        this.set({ limitReached: true })
        void this.stop()
        break
      case 'done':
        this.worker?.terminate()
        this.worker = null
        this.set({ wav: message.wav, seconds: message.seconds })
        this.finishStream()
        break
      case 'error':
        this.failMicrophone()
        break
    }
  }

  private async connect() {
    let credential: SpeechCredential
    try {
      credential = await this.credential()
    } catch (error) {
      this.set({ connection: 'closed', connectionError: errorMessage(error) })
      return
    }
    if (this.disposed || this.stopping || this.state.microphone === 'error') {
      this.set({ connection: 'closed' })
      return
    }
    let socket: WebSocket
    try {
      socket = new WebSocket(listenUrl(credential.listenUrl), [credential.scheme, credential.key])
    } catch (error) {
      this.set({ connection: 'closed', connectionError: errorMessage(error) })
      return
    }
    socket.binaryType = 'arraybuffer'
    this.socket = socket
    socket.onopen = () => {
      this.set({ connection: 'open' })
      for (const bytes of this.queued) socket.send(bytes)
      this.queued = []
      this.queuedBytes = 0
      // Spec section 7: a keep-alive every 10 seconds.
      this.keepAlive = window.setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'KeepAlive' }))
      }, KEEP_ALIVE_MS)
      if (this.state.wav) this.finishStream()
    }
    socket.onmessage = (event: MessageEvent) => {
      const speech = readSpeechMessage(event.data)
      if (!speech) return
      if (speech.kind === 'interim') this.set({ interim: speech.text })
      else this.set({ transcript: appendFinal(this.state.transcript, speech.text), interim: '' })
    }
    socket.onclose = (event: CloseEvent) => {
      window.clearInterval(this.keepAlive)
      this.socket = null
      const expected = this.stopping || event.code === 1000
      this.set({
        connection: 'closed',
        interim: '',
        connectionError: expected ? this.state.connectionError : 'The live transcription connection was lost.',
      })
    }
  }

  private sendAudio(bytes: ArrayBuffer) {
    if (bytes.byteLength === 0) return // an empty frame would close the stream
    const socket = this.socket
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(bytes) // copied by the browser, so the buffer can be freed at once
      releaseBuffer(bytes)
    } else if (this.state.connection === 'connecting' && this.queuedBytes + bytes.byteLength <= MAX_QUEUED_BYTES) {
      this.queued.push(bytes)
      this.queuedBytes += bytes.byteLength
    }
  }

  /** After the last audio: CloseStream, so the server sends its last results and closes. */
  private finishStream() {
    const socket = this.socket
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      if (!socket || socket.readyState !== WebSocket.CONNECTING) this.set({ connection: 'closed' })
      return
    }
    this.set({ connection: 'closing' })
    socket.send(JSON.stringify({ type: 'CloseStream' }))
    // If the server never closes, do not wait for ever.
    window.setTimeout(() => this.closeSocket(), 5_000)
  }

  private closeSocket() {
    window.clearInterval(this.keepAlive)
    const socket = this.socket
    if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) {
      this.set({ connection: 'closing' })
      socket.close(1000)
    } else if (!socket) {
      this.set({ connection: 'closed' })
    }
  }

  async pause() {
    if (this.state.microphone !== 'open' || !this.capture) return
    this.set({ microphone: 'pausing' })
    await this.capture.pause()
    this.set({ microphone: 'paused' })
  }

  async resume() {
    if (this.state.microphone !== 'paused' || !this.capture) return
    this.set({ microphone: 'opening' })
    await this.capture.resume()
    this.set({ microphone: 'open' })
  }

  /** Stops recording: the worker answers with the WAV, then the stream is closed. */
  async stop() {
    if (this.stopping) return
    this.stopping = true
    this.set({ stopped: true })
    const capture = this.capture
    this.capture = null
    if (capture) {
      await capture.stop()
      this.set({ microphone: 'not set up' })
      // The worklet's 'end' marker makes the worker finish; if it never comes, ask directly.
      window.setTimeout(() => this.worker?.postMessage({ type: 'stop' } satisfies ToDictationWorker), 500)
    } else {
      this.worker?.postMessage({ type: 'stop' } satisfies ToDictationWorker)
      if (!this.worker) this.finishStream()
    }
  }

  /** The drawer closed as the user meant it to: the kept recording is not needed any more. */
  private forgetKept() {
    clearTimeout(this.transcriptTimer)
    this.transcriptTimer = undefined
    const id = this.recordingId
    this.recordingId = null
    // Marked closed at once, deleted, then let go: no tab offers it back meanwhile.
    const release = this.releaseLock
    this.releaseLock = null
    if (id)
      void closeRecording(id)
        .catch(() => undefined)
        .finally(() => release?.())
    else release?.()
  }

  /** Drops everything at once (the drawer closed). */
  dispose() {
    this.forgetKept()
    this.disposed = true
    this.stopping = true
    this.capture?.close()
    this.capture = null
    this.worker?.terminate()
    this.worker = null
    window.clearInterval(this.keepAlive)
    const socket = this.socket
    this.socket = null
    if (socket && socket.readyState <= WebSocket.OPEN) {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'CloseStream' }))
      socket.close(1000)
    }
  }
}
