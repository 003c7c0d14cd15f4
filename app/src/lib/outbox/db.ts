//! The device's own storage for what a user captures: one IndexedDB database (through `idb`)
//! with the outbox (everything waiting to reach the server) and the dictation recordings
//! written while they are made (so a closed tab loses nothing). Every record carries the
//! user's id, so sign-out can remove exactly that user's things from a shared device.

import { openDB, type DBSchema, type IDBPDatabase } from 'idb'

export const DB_NAME = 'voicemark'

/** Where an outbox item stands. */
export type OutboxState = 'waiting' | 'sending' | 'sent' | 'stuck'

/** What an item asks the server to do (see `senders.ts`). */
export type OutboxJob =
  | {
      type: 'mutation'
      path: string
      input: Record<string, unknown>
      /**
       * The answer may list `conflicts` (parts not written because someone else changed them:
       * `task.save`): sent in the background with any, the item is Stuck and keeps its text.
       */
      keepIfConflicts?: boolean
    }
  | { type: 'voiceNote'; audio: Blob; filename: string; transcript?: string }
  | {
      type: 'analysePhotos'
      photos: Blob[]
      prompt: string
      mode: 'FEEDBACK' | 'NOTES'
      /** Where the answer goes when nobody was there to see it (the photos waited): see `AnswerGoesTo`. */
      then?: AnswerGoesTo
    }
  | {
      /** A file added to a task's content (upload kind `taskFile`), in parts that resume. */
      type: 'taskFile'
      taskId: string
      file: Blob
      filename: string
      /** Kept as a recording of the task (`taskContent.addRecording`) once it has arrived. */
      recording?: { transcript?: string }
    }

/**
 * A mutation that takes an analysis's answer: `path` with `input` and the answer in `field`
 * (the task content's photo notes: `taskContent.addPhotoNotes` with `notes`). It runs only
 * when the answer arrived unseen; a user looking at the answer decides what to do with it.
 */
export interface AnswerGoesTo {
  path: string
  input: Record<string, unknown>
  field: string
}

export interface OutboxItem {
  /** Made on the device; also the base of the item's idempotency keys. */
  id: string
  userId: string
  /** What the panel calls it: "Feedback for Isla Brown". */
  title: string
  createdAt: number
  state: OutboxState
  /** 0 to 1 while sending a file. */
  progress?: number
  attempts: number
  /** Not before this time (ms since the epoch): the backoff after a failed try. */
  nextAttemptAt: number
  /** Why the server refused it (Stuck), in its own words. */
  reason?: string
  /** What to send; once the server has it, gone (null) but for a small change (`mutation`). */
  job: OutboxJob | null
  /** Query prefixes to refresh once it is sent (`feedback.`, `student.comments`). */
  refresh: string[]
  /** Where a file upload stands, so a reload resumes it. */
  resume?: unknown
  /** The server's answer (e.g. the photo analysis), kept with a sent item. */
  answer?: string
  sentAt?: number
}

/** One second or so of a dictation being recorded: WAV data bytes (16-bit mono PCM). */
export interface RecordingChunk {
  recordingId: string
  seq: number
  userId: string
  data: Blob
}

/** A dictation being recorded: when it started and the transcript so far. */
export interface RecordingHead {
  id: string
  userId: string
  startedAt: number
  /** The WAV's sample rate (the recorder writes 16 kHz, 16-bit mono). */
  sampleRate: number
  transcript: string
  updatedAt: number
}

interface Schema extends DBSchema {
  outbox: { key: string; value: OutboxItem; indexes: { byUser: string } }
  recordings: { key: string; value: RecordingHead; indexes: { byUser: string } }
  chunks: { key: [string, number]; value: RecordingChunk; indexes: { byRecording: string; byUser: string } }
}

export type Db = IDBPDatabase<Schema>

let opening: Promise<Db> | null = null

/** The database, opened (and created) once per page. */
export function db(): Promise<Db> {
  opening ??= openDB<Schema>(DB_NAME, 1, {
    upgrade(database) {
      const outbox = database.createObjectStore('outbox', { keyPath: 'id' })
      outbox.createIndex('byUser', 'userId')
      const recordings = database.createObjectStore('recordings', { keyPath: 'id' })
      recordings.createIndex('byUser', 'userId')
      const chunks = database.createObjectStore('chunks', { keyPath: ['recordingId', 'seq'] })
      chunks.createIndex('byRecording', 'recordingId')
      chunks.createIndex('byUser', 'userId')
    },
    // Another tab opened a newer version: let it, and open again next time.
    blocking() {
      void opening?.then((d) => d.close())
      opening = null
    },
  }).catch((error: unknown) => {
    opening = null
    throw error
  })
  return opening
}

/** Removes every record of `userId` (sign-out on a shared device). */
export async function forgetUser(userId: string): Promise<void> {
  const d = await db()
  const tx = d.transaction(['outbox', 'recordings', 'chunks'], 'readwrite')
  for (const name of ['outbox', 'recordings', 'chunks'] as const) {
    const index = tx.objectStore(name).index('byUser')
    for (let cursor = await index.openCursor(userId); cursor; cursor = await cursor.continue()) await cursor.delete()
  }
  await tx.done
}
