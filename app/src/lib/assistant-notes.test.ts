import { describe, expect, it } from 'vitest'

import { assistantDraftHtml, saveAssistantDraft, textToHtml, toNotes } from './assistant-notes'

describe('toNotes', () => {
  it('makes one bullet per sentence and keeps paragraphs apart', () => {
    const text = 'Feedback on 2 photos: Clear working shown throughout. Next step: check the units in question 3.\n\nWell done!'
    expect(toNotes(text)).toBe(
      '• Feedback on 2 photos: Clear working shown throughout.\n• Next step: check the units in question 3.\n• Well done!',
    )
  })

  it('drops existing list markers and does not split decimals or lower-case continuations', () => {
    expect(toNotes('- Score 7.5 out of 10 e.g. here.\n2. Show your method')).toBe(
      '• Score 7.5 out of 10 e.g. here.\n• Show your method',
    )
  })

  it('gives nothing for blank text', () => {
    expect(toNotes('  \n \n')).toBe('')
  })
})

describe('textToHtml', () => {
  it('escapes markup and turns bullet lines into a list', () => {
    expect(textToHtml('Dear <class>\n• one & two\n• three\nThanks')).toBe(
      '<p>Dear &lt;class&gt;</p><ul><li>one &amp; two</li><li>three</li></ul><p>Thanks</p>',
    )
  })
})

describe('assistant draft', () => {
  it('round-trips through storage as editor HTML', () => {
    const store = new Map<string, string>()
    const storage = { setItem: (k: string, v: string) => void store.set(k, v), getItem: (k: string) => store.get(k) ?? null }
    expect(assistantDraftHtml(storage)).toBe('')
    saveAssistantDraft('Good work.', storage)
    expect(assistantDraftHtml(storage)).toBe('<p>Good work.</p>')
  })
})
