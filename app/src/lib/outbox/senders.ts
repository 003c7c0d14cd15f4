//! How each kind of outbox item reaches the server. Every call carries an idempotency key
//! made from the item's id, so a try whose answer was lost can be made again without doing
//! the thing twice (the server keeps the first answer: docs/offline.md).

import { rpcMutation, type MutationPath, type RpcInput } from '../rpc'
import { saveDraft } from '../dictation-drafts'
import { toBase64 } from '../photo-prep'
import type { ResumeState } from '../resumable-upload'
import type { OutboxItem, OutboxJob } from './db'

export interface SendContext {
  onProgress(fraction: number): void
  /** Keeps where a file upload stands, so a later try (or a reload) resumes it. */
  saveResume(resume: unknown): Promise<void>
  signal: AbortSignal
  /** A form on screen is waiting for the answer (it shows what the server said itself). */
  foreground: boolean
}

/**
 * Why a change sent later is Stuck when the server wrote only part of it (`keepIfConflicts`):
 * someone else changed the same thing while it waited. The item keeps the user's text, and the
 * page it came from offers it back.
 */
export const CONFLICT_REASON = 'Someone else changed this while it waited to be sent. Open it to choose what to keep.'

function hasConflicts(value: unknown): boolean {
  const conflicts = (value as { conflicts?: unknown } | null)?.conflicts
  return Array.isArray(conflicts) && conflicts.length > 0
}

/**
 * What the server answered: words worth keeping with a sent item, the id of what it made, and
 * (for a form still on screen) the whole answer.
 */
export type SendResult = { answer?: string; id?: string; value?: unknown }

/** The idempotency key of step `step` of `item` (at most 100 characters of [A-Za-z0-9_-]). */
export function stepKey(item: Pick<OutboxItem, 'id'>, step: string): string {
  return `${item.id}-${step}`
}

/** Sends `item`; throws what the server or the network threw. */
export async function send(item: OutboxItem, ctx: SendContext): Promise<SendResult> {
  const job = item.job
  if (!job) return {}
  switch (job.type) {
    case 'mutation': {
      const input = { ...job.input, idempotencyKey: stepKey(item, 'm') }
      const value = await rpcMutation(job.path as MutationPath, input as unknown as RpcInput<MutationPath>)
      // Sent unseen and not all written: kept (Stuck) rather than lost behind a "Sent".
      if (job.keepIfConflicts && !ctx.foreground && hasConflicts(value)) throw new Error(CONFLICT_REASON)
      return { value }
    }
    case 'analysePhotos': {
      const images = await Promise.all(job.photos.map(blobToBase64))
      const { text } = await rpcMutation('notification.analyseImage', {
        images,
        prompt: job.prompt,
        mode: job.mode,
        idempotencyKey: stepKey(item, 'a'),
      })
      return { answer: text }
    }
    case 'voiceNote':
      return sendVoiceNote(item, job, ctx)
  }
}

/** Where a voice note stands: its upload in parts, then (once whole) its storage key. */
interface VoiceNoteResume {
  upload?: ResumeState
  key?: string
}

async function sendVoiceNote(
  item: OutboxItem,
  job: Extract<OutboxJob, { type: 'voiceNote' }>,
  ctx: SendContext,
): Promise<SendResult> {
  const resume = (item.resume ?? {}) as VoiceNoteResume
  let key = resume.key
  if (!key) {
    // In parts that resume: a cut connection costs at most the part in flight, and a
    // reload carries on from the parts the server has (lib/resumable-upload.ts).
    const { uploadResumable } = await import('../resumable-upload')
    const done = await uploadResumable({
      body: job.audio,
      filename: job.filename,
      contentType: job.audio.type || 'audio/wav',
      kind: 'voiceNote',
      state: resume.upload,
      onState: (upload) => ctx.saveResume({ upload } satisfies VoiceNoteResume),
      onProgress: ctx.onProgress,
      signal: ctx.signal,
    })
    key = done.key
    await ctx.saveResume({ key } satisfies VoiceNoteResume)
  }
  const { id } = await rpcMutation('leader.transferVoiceNoteToPersonalFolder', { key, idempotencyKey: stepKey(item, 'f') })
  if (job.transcript)
    saveDraft({ voiceNoteId: id, filename: job.filename, transcript: job.transcript, createdAt: new Date(item.createdAt).toISOString() })
  return { id }
}

async function blobToBase64(blob: Blob): Promise<string> {
  return toBase64(new Uint8Array(await blob.arrayBuffer()))
}
