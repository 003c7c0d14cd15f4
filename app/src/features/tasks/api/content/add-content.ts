//! Adding to a task's content goes through the outbox (lib/outbox, docs/offline.md): a file,
//! a recording (with its transcript), photo notes and voice notes pulled in are kept on the
//! device first, then sent, so a dropped connection loses nothing. Files go up in parts that
//! resume (`upload.start` with kind `taskFile` adds the item; a recording is then kept as one
//! by `taskContent.addRecording`); each call carries an idempotency key made from the item.
//! Until the server has them, the Content section lists them as not sent yet.

import type { AnalyserTarget } from '@/lib/capture'
import { outbox, useOutboxItems, type OutboxItem } from '@/lib/outbox/use-outbox'
import type { SubmitOutcome } from '@/lib/outbox/outbox'

/** What to fetch again once a piece of content has gone: the content list and the picker. */
const REFRESH = ['leader.listTaskFiles', 'taskContent.voiceNotes']

/** Keeps `file` for task `taskId` on the device, then uploads it (progress while it is sent now). */
export function addTaskFile(
  taskId: string,
  file: Blob,
  filename: string,
  onProgress: (fraction: number) => void,
): Promise<SubmitOutcome> {
  return outbox.submit(`File ${filename}`, { type: 'taskFile', taskId, file, filename }, REFRESH, onProgress)
}

/** Keeps a recording (the dictation's WAV and transcript; `filename` says "Recording …") for task `taskId`, then sends it. */
export function addTaskRecording(
  taskId: string,
  wav: Blob,
  filename: string,
  transcript: string,
  onProgress: (fraction: number) => void,
): Promise<SubmitOutcome> {
  return outbox.submit(
    filename,
    { type: 'taskFile', taskId, file: wav, filename, recording: { transcript } },
    REFRESH,
    onProgress,
  )
}

/** Keeps the photo analyser's notes (as the user left them) as an item of task `taskId`. */
export function addPhotoNotes(taskId: string, name: string, notes: string): Promise<SubmitOutcome> {
  return outbox.submit(
    name,
    { type: 'mutation', path: 'taskContent.addPhotoNotes', input: { taskId, name, notes } },
    REFRESH,
  )
}

/**
 * For photos that must wait to be read (no connection): once read, their notes become item
 * `name` of task `taskId` without anyone having to come back for them.
 */
export function photoNotesLater(taskId: string, name: string): NonNullable<AnalyserTarget['later']> {
  return {
    title: name,
    then: { path: 'taskContent.addPhotoNotes', input: { taskId, name }, field: 'notes' },
    promise: 'the notes will be added to this task.',
    refresh: REFRESH,
  }
}

/** Pulls the caller's voice notes `voiceNoteIds` into task `taskId`. */
export function addVoiceNotes(taskId: string, voiceNoteIds: string[]): Promise<SubmitOutcome> {
  const count = voiceNoteIds.length
  return outbox.submit(
    count === 1 ? 'A voice note for a task' : `${count} voice notes for a task`,
    { type: 'mutation', path: 'taskContent.addVoiceNotes', input: { taskId, voiceNoteIds } },
    REFRESH,
  )
}

/** Which task an outbox item adds content to, if any. */
export function contentTaskOf(item: OutboxItem): string | null {
  const job = item.job
  if (!job) return null
  switch (job.type) {
    case 'taskFile':
      return job.taskId
    case 'analysePhotos':
      return job.then?.path === 'taskContent.addPhotoNotes' ? String(job.then.input.taskId) : null
    case 'mutation':
      return job.path.startsWith('taskContent.add') ? String(job.input.taskId) : null
    default:
      return null
  }
}

/** This task's content still on the device (waiting, being sent or stuck), oldest first. */
export function useUnsentContent(taskId: string): OutboxItem[] {
  const items = useOutboxItems()
  return items.filter((item) => item.state !== 'sent' && contentTaskOf(item) === taskId)
}
