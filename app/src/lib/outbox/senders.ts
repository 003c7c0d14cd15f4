//! How each kind of outbox item reaches the server. Every call carries an idempotency key
//! made from the item's id, so a try whose answer was lost can be made again without doing
//! the thing twice (the server keeps the first answer: docs/offline.md).

import { rpcMutation, type MutationPath, type RpcInput } from '../rpc'
import { saveDraft } from '../dictation-drafts'
import { toBase64 } from '../photo-prep'
import type { ResumeState, UploadKind } from '../resumable-upload'
import { contentTypeOf } from '../upload'
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
      // Analysed unseen (the photos waited): the answer goes where the user meant it to.
      // A try after a lost answer gets the same analysis back (its key), so this runs once.
      if (job.then && !ctx.foreground)
        await rpcMutation(job.then.path as MutationPath, {
          ...job.then.input,
          [job.then.field]: text,
          idempotencyKey: stepKey(item, 'n'),
        } as unknown as RpcInput<MutationPath>)
      return { answer: text }
    }
    case 'voiceNote':
      return sendVoiceNote(item, job, ctx)
    case 'taskFile':
      return sendTaskFile(item, job, ctx)
  }
}

/** Where an upload in parts stands: its parts so far, then (once whole) its storage key. */
interface UploadResume {
  upload?: ResumeState
  key?: string
}

/** Uploads `body` in parts that resume from `item.resume`; resolves with its storage key. */
async function uploadOnce(
  item: OutboxItem,
  ctx: SendContext,
  file: { body: Blob; filename: string; contentType: string; kind: UploadKind; taskId?: string },
): Promise<string> {
  const resume = (item.resume ?? {}) as UploadResume
  if (resume.key) return resume.key
  // In parts that resume: a cut connection costs at most the part in flight, and a
  // reload carries on from the parts the server has (lib/resumable-upload.ts).
  const { uploadResumable } = await import('../resumable-upload')
  const done = await uploadResumable({
    ...file,
    state: resume.upload,
    idempotencyKey: stepKey(item, 's'),
    onState: (upload) => ctx.saveResume({ upload } satisfies UploadResume),
    onProgress: ctx.onProgress,
    signal: ctx.signal,
  })
  await ctx.saveResume({ key: done.key } satisfies UploadResume)
  return done.key
}

async function sendVoiceNote(
  item: OutboxItem,
  job: Extract<OutboxJob, { type: 'voiceNote' }>,
  ctx: SendContext,
): Promise<SendResult> {
  const key = await uploadOnce(item, ctx, {
    body: job.audio,
    filename: job.filename,
    contentType: job.audio.type || 'audio/wav',
    kind: 'voiceNote',
  })
  const { id } = await rpcMutation('leader.transferVoiceNoteToPersonalFolder', { key, idempotencyKey: stepKey(item, 'f') })
  if (job.transcript)
    saveDraft({ voiceNoteId: id, filename: job.filename, transcript: job.transcript, createdAt: new Date(item.createdAt).toISOString() })
  return { id }
}

/** A file of a task's content; a recording is then kept as one, with its transcript. */
async function sendTaskFile(
  item: OutboxItem,
  job: Extract<OutboxJob, { type: 'taskFile' }>,
  ctx: SendContext,
): Promise<SendResult> {
  const key = await uploadOnce(item, ctx, {
    body: job.file,
    filename: job.filename,
    contentType: contentTypeOf({ name: job.filename, type: job.file.type }),
    kind: 'taskFile',
    taskId: job.taskId,
  })
  if (job.recording)
    await rpcMutation('taskContent.addRecording', {
      taskId: job.taskId,
      key,
      transcript: job.recording.transcript || undefined,
      idempotencyKey: stepKey(item, 'r'),
    })
  return { id: key }
}

async function blobToBase64(blob: Blob): Promise<string> {
  return toBase64(new Uint8Array(await blob.arrayBuffer()))
}
