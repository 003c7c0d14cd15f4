import { describe, expect, it } from 'vitest'

import { readAssistantDraft, saveAssistantDraft, saveAssistantMessageDraft, textToHtml, toNotes } from './assistant-notes'

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
  const memoryStorage = () => {
    const store = new Map<string, string>()
    return {
      setItem: (k: string, v: string) => void store.set(k, v),
      getItem: (k: string) => store.get(k) ?? null,
      store,
    }
  }

  it("reads the photo analyser's plain text as the message alone", () => {
    const storage = memoryStorage()
    expect(readAssistantDraft(storage)).toBeNull()
    saveAssistantDraft('Good work.', storage)
    expect(readAssistantDraft(storage)).toEqual({ bodyHtml: '<p>Good work.</p>', students: [] })
  })

  it('keeps plain text that only looks like JSON as text', () => {
    const storage = memoryStorage()
    saveAssistantDraft('{"score": 7} was the mark.', storage)
    expect(readAssistantDraft(storage)).toEqual({ bodyHtml: '<p>{&quot;score&quot;: 7} was the mark.</p>', students: [] })
    saveAssistantDraft('{"v":1,"body":"old"}', storage)
    expect(readAssistantDraft(storage)?.title).toBeUndefined()
  })

  it("reads the assistant's drafted message with its title, pupils and audience", () => {
    const storage = memoryStorage()
    saveAssistantMessageDraft(
      {
        type: 'GENERAL',
        title: 'Fractions: work not handed in',
        body: 'Dear parent,\n\nYour child has not yet handed in <Fractions>.\n\nThank you.',
        students: [
          { id: 's1', name: 'Amelia Smith' },
          { id: 's2', name: 'Oliver Jones' },
        ],
        sendToPupil: false,
        sendToParent: true,
      },
      storage,
    )
    expect(JSON.parse(storage.store.get('voicemark.assistant-draft') ?? '')).toMatchObject({ v: 2, type: 'GENERAL' })
    expect(readAssistantDraft(storage)).toEqual({
      title: 'Fractions: work not handed in',
      bodyHtml: '<p>Dear parent,</p><p>Your child has not yet handed in &lt;Fractions&gt;.</p><p>Thank you.</p>',
      students: [
        { id: 's1', name: 'Amelia Smith' },
        { id: 's2', name: 'Oliver Jones' },
      ],
      sendToPupil: false,
      sendToParent: true,
    })
  })

  it('drops pupils without an id from a stored draft', () => {
    const storage = memoryStorage()
    storage.setItem(
      'voicemark.assistant-draft',
      JSON.stringify({ v: 2, type: 'ASSIGNMENT', title: '', body: 'Read.', students: [{ name: 'No id' }, { id: 'p1' }, null], sendToParent: true }),
    )
    expect(readAssistantDraft(storage)).toEqual({
      title: undefined,
      bodyHtml: '<p>Read.</p>',
      students: [{ id: 'p1', name: '' }],
      sendToPupil: false,
      sendToParent: true,
    })
  })
})
