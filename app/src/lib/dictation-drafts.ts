//! Dictation drafts: 'Save to drafts' keeps the recording as a voice note in the user's
//! personal folder, and its transcript here, in this browser's storage, keyed by the note's
//! id (the server stores audio, not transcripts). The Voice notes page shows the transcript
//! under its note.

export interface DictationDraft {
  voiceNoteId: string
  filename: string
  transcript: string
  createdAt: string
}

const KEY = 'voicemark.dictation-drafts'

export function loadDrafts(storage: Pick<Storage, 'getItem'> = localStorage): DictationDraft[] {
  try {
    const value = JSON.parse(storage.getItem(KEY) ?? '[]') as unknown
    return Array.isArray(value) ? (value as DictationDraft[]) : []
  } catch {
    return []
  }
}

export function saveDraft(draft: DictationDraft, storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage) {
  const drafts = loadDrafts(storage).filter((d) => d.voiceNoteId !== draft.voiceNoteId)
  storage.setItem(KEY, JSON.stringify([draft, ...drafts]))
}

export function draftFor(voiceNoteId: string): DictationDraft | undefined {
  if (typeof localStorage === 'undefined') return undefined
  return loadDrafts().find((d) => d.voiceNoteId === voiceNoteId)
}
