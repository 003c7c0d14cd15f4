//! Dictation that survives a closed tab: while recording, the dictation worker writes each
//! second of WAV data to IndexedDB and the page writes the transcript so far, so a closed tab,
//! a crash or a reboot loses at most about a second. The tab recording holds a Web Lock named
//! after the recording; a recording whose lock is free belongs to no open tab, and the app
//! offers it back ("Recovered dictation from …") with Save and Discard.

import { db, type RecordingHead } from './db'

export const RECORDING_RATE = 16_000
const BYTES_PER_SECOND = RECORDING_RATE * 2

export const recordingLock = (id: string) => `voicemark-recording:${id}`

/** Starts keeping recording `id` of `userId` (take its lock first, so no tab offers it back). */
export async function beginRecording(id: string, userId: string): Promise<void> {
  const now = Date.now()
  await (await db()).put('recordings', { id, userId, startedAt: now, sampleRate: RECORDING_RATE, transcript: '', updatedAt: now })
}

/**
 * Keeps the transcript so far with the recording: read and written in one transaction, so a
 * write still under way when the recording is forgotten cannot bring its head back.
 */
export async function keepTranscript(id: string, transcript: string): Promise<void> {
  const tx = (await db()).transaction('recordings', 'readwrite')
  const head = await tx.store.get(id)
  if (head) await tx.store.put({ ...head, transcript, updatedAt: Date.now() })
  await tx.done
}

/**
 * Recordings closed on purpose whose deletion may not have finished: written at once (local
 * storage is synchronous), so a page left right after Insert or Save never offers one back.
 */
const FORGOTTEN = 'voicemark.recordings-forgotten'

function forgottenIds(): string[] {
  try {
    const value = JSON.parse(localStorage.getItem(FORGOTTEN) ?? '[]') as unknown
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []
  } catch {
    return []
  }
}

function setForgotten(ids: string[]) {
  try {
    if (ids.length === 0) localStorage.removeItem(FORGOTTEN)
    else localStorage.setItem(FORGOTTEN, JSON.stringify(ids.slice(-50)))
  } catch {
    // No storage: the deletion below is all there is.
  }
}

/**
 * The user is done with recording `id` (inserted, saved or discarded): it is marked at once
 * and then deleted with its parts.
 */
export async function closeRecording(id: string): Promise<void> {
  if (typeof localStorage !== 'undefined') setForgotten([...forgottenIds().filter((f) => f !== id), id])
  await forgetRecording(id)
}

/**
 * Writes one part of the WAV data (called by the dictation worker) and answers the stored
 * copy, which the browser keeps on disk rather than in memory.
 */
export async function writeRecordingPart(recordingId: string, userId: string, seq: number, data: Blob): Promise<Blob | undefined> {
  const d = await db()
  await d.put('chunks', { recordingId, userId, seq, data })
  return (await d.get('chunks', [recordingId, seq]))?.data
}

/** The recording's data parts, in order (Blobs the browser keeps on disk). */
export async function recordingParts(recordingId: string): Promise<Blob[]> {
  const chunks = await (await db()).getAllFromIndex('chunks', 'byRecording', recordingId)
  return chunks.sort((a, b) => a.seq - b.seq).map((chunk) => chunk.data)
}

/** Deletes the recording and its parts. */
export async function forgetRecording(recordingId: string): Promise<void> {
  const d = await db()
  const tx = d.transaction(['recordings', 'chunks'], 'readwrite')
  await tx.objectStore('recordings').delete(recordingId)
  const index = tx.objectStore('chunks').index('byRecording')
  for (let cursor = await index.openCursor(recordingId); cursor; cursor = await cursor.continue()) await cursor.delete()
  await tx.done
}

export interface Recovered extends RecordingHead {
  /** Seconds of audio kept. */
  seconds: number
}

/** `userId`'s recordings that no open tab is making, newest first (empty ones are removed). */
export async function recordingsToRecover(userId: string): Promise<Recovered[]> {
  const d = await db()
  // Closed on purpose, but the page went before the deletion finished: finish it now.
  const forgotten = typeof localStorage === 'undefined' ? [] : forgottenIds()
  for (const id of forgotten) await forgetRecording(id)
  if (forgotten.length > 0) setForgotten(forgottenIds().filter((id) => !forgotten.includes(id)))
  const heads = await d.getAllFromIndex('recordings', 'byUser', userId)
  // Parts written after their recording was closed (a write still queued then) are let go.
  const known = new Set(heads.map((head) => head.id))
  for (const key of await d.getAllKeysFromIndex('chunks', 'byUser', userId))
    if (!known.has(key[0])) await d.delete('chunks', key)
  const found: Recovered[] = []
  for (const head of heads) {
    if (!(await lockIsFree(recordingLock(head.id)))) continue
    const parts = await recordingParts(head.id)
    const bytes = parts.reduce((sum, part) => sum + part.size, 0)
    if (bytes === 0) {
      await forgetRecording(head.id)
      continue
    }
    found.push({ ...head, seconds: bytes / (head.sampleRate * 2 || BYTES_PER_SECOND) })
  }
  return found.sort((a, b) => b.startedAt - a.startedAt)
}

async function lockIsFree(name: string): Promise<boolean> {
  if (typeof navigator === 'undefined' || !navigator.locks) return true
  return navigator.locks.request(name, { ifAvailable: true }, (lock) => lock !== null)
}

/** "2 min 5 s" (whole seconds, rounded down). */
export function recordedLength(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds))
  return `${Math.floor(whole / 60)} min ${whole % 60} s`
}

/** The whole recording as a WAV file. */
export async function recoveredWav(head: RecordingHead): Promise<Blob> {
  const parts = await recordingParts(head.id)
  const bytes = parts.reduce((sum, part) => sum + part.size, 0)
  return new Blob([wavHeader(bytes, head.sampleRate) as Uint8Array<ArrayBuffer>, ...parts], { type: 'audio/wav' })
}

/** The 44-byte header of a 16-bit mono PCM WAV holding `dataBytes` bytes of samples. */
export function wavHeader(dataBytes: number, sampleRate = RECORDING_RATE): Uint8Array {
  const header = new ArrayBuffer(44)
  const view = new DataView(header)
  const text = (offset: number, value: string) => [...value].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)))
  text(0, 'RIFF')
  view.setUint32(4, 36 + dataBytes, true)
  text(8, 'WAVE')
  text(12, 'fmt ')
  view.setUint32(16, 16, true) // the fmt chunk's size
  view.setUint16(20, 1, true) // PCM
  view.setUint16(22, 1, true) // mono
  view.setUint32(24, sampleRate, true)
  view.setUint32(28, sampleRate * 2, true) // bytes per second
  view.setUint16(32, 2, true) // bytes per frame
  view.setUint16(34, 16, true) // bits per sample
  text(36, 'data')
  view.setUint32(40, dataBytes, true)
  return new Uint8Array(header)
}
