//! How each kind of outbox item reaches the server. Every call carries an idempotency key
//! made from the item's id, so a try whose answer was lost can be made again without doing
//! the thing twice (the server keeps the first answer: docs/offline.md).

import { rpcMutation, type MutationPath, type RpcInput } from '../rpc'
import { saveDraft } from '../dictation-drafts'
import { toBase64 } from '../photo-prep'
import { putWithProgress, type SignedUpload } from '../upload'
import type { OutboxItem, OutboxJob } from './db'

export interface SendContext {
  onProgress(fraction: number): void
  /** Keeps where a file upload stands, so a later try (or a reload) resumes it. */
  saveResume(resume: unknown): Promise<void>
  signal: AbortSignal
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
      return { value }
    }
    case 'analysePhotos': {
      const images = await Promise.all(job.photos.map(blobToBase64))
      const { text } = await rpcMutation('notification.analyseImage', {
        images,
        prompt: job.prompt,
        mode: job.mode,
        idempotencyKey: stepKey(item, 'a'),
      } as RpcInput<'notification.analyseImage'>)
      return { answer: text }
    }
    case 'voiceNote':
      return sendVoiceNote(item, job, ctx)
  }
}

interface VoiceNoteResume {
  target: SignedUpload & { key: string; expiresAt: string | Date }
  /** Which start this is (a new one when the last link expired before the file arrived). */
  round: number
  uploaded?: boolean
}

async function sendVoiceNote(
  item: OutboxItem,
  job: Extract<OutboxJob, { type: 'voiceNote' }>,
  ctx: SendContext,
): Promise<SendResult> {
  let resume = item.resume as VoiceNoteResume | undefined
  const expired = resume && new Date(resume.target.expiresAt).getTime() - Date.now() < 60_000
  if (!resume || (expired && !resume.uploaded)) {
    const round = (resume?.round ?? 0) + 1
    const contentType = job.audio.type || 'audio/wav'
    const target = await rpcMutation('leader.uploadVoiceNote', {
      filename: job.filename,
      contentType,
      size: job.audio.size,
      idempotencyKey: stepKey(item, `s${round}`),
    } as RpcInput<'leader.uploadVoiceNote'>)
    resume = { target, round }
    await ctx.saveResume(resume)
  }
  if (!resume.uploaded) {
    try {
      await putWithProgress(resume.target, job.audio, job.filename, ctx.onProgress, ctx.signal)
    } catch (error) {
      // 409: an earlier try's bytes did arrive (its answer was lost on the way back).
      if (!(error && typeof error === 'object' && 'status' in error && error.status === 409)) throw error
    }
    resume = { ...resume, uploaded: true }
    await ctx.saveResume(resume)
  }
  const { id } = await rpcMutation('leader.transferVoiceNoteToPersonalFolder', {
    key: resume.target.key,
    idempotencyKey: stepKey(item, 'f'),
  } as RpcInput<'leader.transferVoiceNoteToPersonalFolder'>)
  if (job.transcript)
    saveDraft({ voiceNoteId: id, filename: job.filename, transcript: job.transcript, createdAt: new Date(item.createdAt).toISOString() })
  return { id }
}

async function blobToBase64(blob: Blob): Promise<string> {
  return toBase64(new Uint8Array(await blob.arrayBuffer()))
}
