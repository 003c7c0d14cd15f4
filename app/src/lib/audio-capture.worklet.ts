//! The AudioWorklet processor of `audio-capture.ts`: gathers the microphone's 128-sample
//! render quanta into ~100 ms mono Float32 chunks and posts each one (transferred, not
//! copied) on the MessagePort it was given, which leads straight to the dictation worker,
//! so audio never waits on the page's main thread.
//!
//! Messages on the node's own port: {type:'port', port} to set the output; {type:'flush'}
//! to send what is buffered and then an {type:'end'} marker on the output.

// The AudioWorkletGlobalScope, typed by hand (the app's tsconfig uses the DOM library).
declare const sampleRate: number
declare class AudioWorkletProcessor {
  readonly port: MessagePort
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void

const CHUNK_SECONDS = 0.1

class CaptureProcessor extends AudioWorkletProcessor {
  private output: MessagePort | null = null
  private readonly size = Math.round(sampleRate * CHUNK_SECONDS)
  private chunk = new Float32Array(this.size)
  private filled = 0
  private ended = false

  constructor() {
    super()
    this.port.onmessage = (event: MessageEvent<{ type: string; port?: MessagePort }>) => {
      if (event.data.type === 'port' && event.data.port) this.output = event.data.port
      else if (event.data.type === 'flush') {
        this.send()
        this.ended = true
        this.output?.postMessage({ type: 'end' })
      }
    }
  }

  private send() {
    if (this.filled === 0 || !this.output) return
    const out = this.filled === this.size ? this.chunk : this.chunk.slice(0, this.filled)
    this.output.postMessage(out, [out.buffer]) // detaches `out` (and so, when full, `chunk`)
    this.chunk = new Float32Array(this.size)
    this.filled = 0
  }

  process(inputs: Float32Array[][]): boolean {
    const channels = inputs[0]
    if (this.ended || !channels || channels.length === 0) return !this.ended
    const frames = channels[0].length
    for (let i = 0; i < frames; i++) {
      // Mono: the mean of the channels (one, with the constraints audio-capture.ts asks for).
      let sum = 0
      for (const channel of channels) sum += channel[i]
      this.chunk[this.filled++] = sum / channels.length
      if (this.filled === this.size) this.send()
    }
    return true
  }
}

registerProcessor('voicemark-capture', CaptureProcessor)
