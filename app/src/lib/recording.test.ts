import { describe, expect, it } from 'vitest'

import { baseType, defaultNoteName, extensionFor, formatDuration, pickRecordingType, withExtension } from './recording'

describe('voice-note recording rules', () => {
  it('prefers audio/mp4 and falls back to opus in WebM', () => {
    expect(pickRecordingType(() => true)).toBe('audio/mp4')
    expect(pickRecordingType((t) => t.startsWith('audio/webm'))).toBe('audio/webm;codecs=opus')
    expect(pickRecordingType(() => false)).toBe('')
    expect(baseType('audio/webm;codecs=opus')).toBe('audio/webm')
  })

  it('names a note after the date and time, without slashes or colons', () => {
    expect(defaultNoteName(new Date(2026, 10, 2, 9, 5))).toBe('Voice note 02-11-2026 09-05')
    expect(defaultNoteName(new Date(2026, 10, 2, 14, 30), 'Dictation')).toBe('Dictation 02-11-2026 14-30')
  })

  it('adds the extension of the format only when missing', () => {
    expect(extensionFor('audio/webm;codecs=opus')).toBe('.webm')
    expect(withExtension('Lesson 3 ', 'audio/mp4')).toBe('Lesson 3.m4a')
    expect(withExtension('Lesson 3.WAV', 'audio/wav')).toBe('Lesson 3.WAV')
  })

  it('shows durations as m:ss', () => {
    expect(formatDuration(0)).toBe('0:00')
    expect(formatDuration(65.9)).toBe('1:05')
    expect(formatDuration(900)).toBe('15:00')
    expect(formatDuration(3725)).toBe('1:02:05')
  })
})
