import { describe, expect, it } from 'vitest'

import { appendFinal, listenUrl, readSpeechMessage } from './speech-socket'

describe('the live speech socket', () => {
  it('asks for nova-2 with smart formatting and the profanity filter on 16 kHz PCM, over ws(s)', () => {
    const url = new URL(listenUrl('http://127.0.0.1:3109/v1/listen'))
    expect(url.protocol).toBe('ws:')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      model: 'nova-2',
      smart_format: 'true',
      profanity_filter: 'true',
      encoding: 'linear16',
      sample_rate: '16000',
      channels: '1',
      interim_results: 'true',
    })
    expect(listenUrl('https://api.deepgram.com/v1/listen').startsWith('wss://api.deepgram.com/v1/listen?')).toBe(true)
  })

  it('reads interim and final results and ignores everything else', () => {
    const results = (isFinal: boolean, transcript: string) =>
      JSON.stringify({ type: 'Results', is_final: isFinal, channel: { alternatives: [{ transcript }] } })
    expect(readSpeechMessage(results(false, 'good use'))).toEqual({ kind: 'interim', text: 'good use' })
    expect(readSpeechMessage(results(true, 'Good use of evidence.'))).toEqual({ kind: 'final', text: 'Good use of evidence.' })
    expect(readSpeechMessage(JSON.stringify({ type: 'Metadata', duration: 1 }))).toBeNull()
    expect(readSpeechMessage(JSON.stringify({ type: 'SomethingNew' }))).toBeNull()
    expect(readSpeechMessage('not json')).toBeNull()
    expect(readSpeechMessage(new ArrayBuffer(2))).toBeNull()
  })

  it('appends final segments with one space and skips silence', () => {
    expect(appendFinal('', 'One.')).toBe('One.')
    expect(appendFinal('One.', 'Two.')).toBe('One. Two.')
    expect(appendFinal('One.', '')).toBe('One.')
  })
})
