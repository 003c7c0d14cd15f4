import { describe, expect, it } from 'vitest'

import { loadDrafts, saveDraft } from './dictation-drafts'

function memoryStorage(initial?: string) {
  const values = new Map<string, string>(initial === undefined ? [] : [['voicemark.dictation-drafts', initial]])
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  }
}

describe('dictation drafts', () => {
  it('keeps the newest draft first and one per voice note', () => {
    const storage = memoryStorage()
    saveDraft({ voiceNoteId: 'a', filename: 'a.wav', transcript: 'One.', createdAt: '2026-11-22T10:00:00Z' }, storage)
    saveDraft({ voiceNoteId: 'b', filename: 'b.wav', transcript: 'Two.', createdAt: '2026-11-22T10:01:00Z' }, storage)
    saveDraft({ voiceNoteId: 'a', filename: 'a.wav', transcript: 'One again.', createdAt: '2026-11-22T10:02:00Z' }, storage)
    expect(loadDrafts(storage).map((d) => [d.voiceNoteId, d.transcript])).toEqual([
      ['a', 'One again.'],
      ['b', 'Two.'],
    ])
  })

  it('reads damaged storage as no drafts', () => {
    expect(loadDrafts(memoryStorage('{not json'))).toEqual([])
    expect(loadDrafts(memoryStorage('{"a":1}'))).toEqual([])
  })
})
