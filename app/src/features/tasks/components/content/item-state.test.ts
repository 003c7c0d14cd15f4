import { describe, expect, it } from 'vitest'

import { kindLabel, preview, recordingName, stateLabel, stateTone } from './item-state'

describe('task content item state', () => {
  it('names what processing means', () => {
    expect(stateLabel({ status: 'QUEUED', processing: 'TRANSCRIBE', arrived: false })).toBe('Uploading')
    expect(stateLabel({ status: 'QUEUED', processing: 'TRANSCRIBE', arrived: true })).toBe('Queued')
    expect(stateLabel({ status: 'PROCESSING', processing: 'TRANSCRIBE', arrived: true })).toBe('Transcribing')
    expect(stateLabel({ status: 'PROCESSING', processing: 'EXTRACT', arrived: true })).toBe('Extracting')
    expect(stateLabel({ status: 'READY', processing: 'NONE', arrived: true })).toBe('Ready')
    expect(stateLabel({ status: 'FAILED', processing: 'EXTRACT', arrived: true })).toBe('Failed')
    expect(stateTone({ status: 'FAILED', processing: 'EXTRACT', arrived: true })).toBe('destructive')
    expect(stateTone({ status: 'READY', processing: 'EXTRACT', arrived: true })).toBe('success')
  })

  it('labels kinds, previews text and names recordings', () => {
    expect(kindLabel('PHOTO_NOTES')).toBe('Photo notes')
    expect(kindLabel('FILE')).toBe('File')
    expect(preview('a\n\nb   c')).toBe('a b c')
    expect(preview('x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`)
    expect(recordingName(new Date(2026, 10, 24, 9, 5))).toBe('Recording 24-11-2026 09.05.wav')
  })
})
