import { describe, expect, it } from 'vitest'

import type { OutboxItem, OutboxJob } from '@/lib/outbox/db'

import { contentTaskOf, photoNotesLater } from './add-content'

const item = (job: OutboxJob | null): OutboxItem => ({
  id: 'i1',
  userId: 'u1',
  title: 't',
  createdAt: 0,
  state: 'waiting',
  attempts: 0,
  nextAttemptAt: 0,
  job,
  refresh: [],
})

describe("which task an outbox item adds content to", () => {
  it('names the task of a file, a recording, photo notes and pulled-in voice notes', () => {
    const file = new Blob(['x'])
    expect(contentTaskOf(item({ type: 'taskFile', taskId: 'T1', file, filename: 'a.txt' }))).toBe('T1')
    expect(contentTaskOf(item({ type: 'taskFile', taskId: 'T2', file, filename: 'r.wav', recording: {} }))).toBe('T2')
    const later = photoNotesLater('T3', 'Photo notes 28/11/2026, 19:00')
    expect(contentTaskOf(item({ type: 'analysePhotos', photos: [], prompt: '', mode: 'FEEDBACK', then: later.then }))).toBe('T3')
    expect(
      contentTaskOf(item({ type: 'mutation', path: 'taskContent.addVoiceNotes', input: { taskId: 'T4', voiceNoteIds: ['v'] } })),
    ).toBe('T4')
  })

  it('leaves out what belongs elsewhere', () => {
    expect(contentTaskOf(item({ type: 'analysePhotos', photos: [], prompt: 'p', mode: 'FEEDBACK' }))).toBeNull()
    expect(contentTaskOf(item({ type: 'mutation', path: 'task.save', input: { id: 'T1' } }))).toBeNull()
    expect(contentTaskOf(item({ type: 'voiceNote', audio: new Blob([]), filename: 'n.wav' }))).toBeNull()
    expect(contentTaskOf(item(null))).toBeNull()
  })

  it('sends photo notes read later to the task, with the answer as the notes', () => {
    const later = photoNotesLater('T3', 'Photo notes')
    expect(later.then).toEqual({ path: 'taskContent.addPhotoNotes', input: { taskId: 'T3', name: 'Photo notes' }, field: 'notes' })
    expect(later.refresh).toContain('leader.listTaskFiles')
  })
})
