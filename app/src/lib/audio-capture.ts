//! Microphone capture for live dictation: getUserMedia -> AudioContext -> an AudioWorklet
//! (audio-capture.worklet.ts) that posts ~100 ms Float32 chunks on a MessagePort. The port's
//! other end (`audio`) is meant for a worker (workers/dictation.worker.ts), which turns the
//! samples into 16 kHz PCM and WAV as they arrive.

import workletUrl from './audio-capture.worklet.ts?worker&url'

export interface AudioCapture {
  /** The AudioContext's rate, the rate of every sample on `audio`. */
  readonly sampleRate: number
  /** Float32Array chunks, then one {type:'end'} after `stop()`. Transfer it to the worker. */
  readonly audio: MessagePort
  /** Resolves when audio flows (the context may start suspended without a user gesture). */
  start(): Promise<void>
  pause(): Promise<void>
  resume(): Promise<void>
  /** Sends what is buffered and the 'end' marker, then releases the microphone. */
  stop(): Promise<void>
  /** Releases the microphone at once, without the 'end' marker. */
  close(): void
}

/**
 * Asks for the microphone and builds the capture graph. Rejects when the microphone is
 * refused or missing (the caller shows its message).
 */
export async function openMicrophone(): Promise<AudioCapture> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
  })
  const context = new AudioContext()
  try {
    await context.audioWorklet.addModule(workletUrl)
    const source = context.createMediaStreamSource(stream)
    const node = new AudioWorkletNode(context, 'voicemark-capture', {
      numberOfInputs: 1,
      numberOfOutputs: 1,
      outputChannelCount: [1],
    })
    // The node only runs while pulled by the destination; a muted gain keeps it silent.
    const mute = context.createGain()
    mute.gain.value = 0
    source.connect(node).connect(mute).connect(context.destination)
    const channel = new MessageChannel()
    node.port.postMessage({ type: 'port', port: channel.port1 }, [channel.port1])

    let closed = false
    const close = () => {
      if (closed) return
      closed = true
      stream.getTracks().forEach((track) => track.stop())
      source.disconnect()
      node.disconnect()
      void context.close().catch(() => undefined)
    }

    return {
      sampleRate: context.sampleRate,
      audio: channel.port2,
      start: () => context.resume(),
      pause: () => context.suspend(),
      resume: () => context.resume(),
      async stop() {
        if (closed) return
        // The worklet only handles messages while its context runs.
        if (context.state === 'suspended') await context.resume().catch(() => undefined)
        node.port.postMessage({ type: 'flush' })
        // Give the flush a render quantum or two before the graph goes.
        await new Promise((resolve) => setTimeout(resolve, 50))
        close()
      },
      close,
    }
  } catch (error) {
    stream.getTracks().forEach((track) => track.stop())
    void context.close().catch(() => undefined)
    throw error
  }
}
