//! The voice-note procedures (leader.uploadVoiceNote, leader.transferVoiceNoteToPersonalFolder,
//! voiceNote.list/rename/delete) and the save flow: sign, PUT with progress, keep.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'

import type { VoiceNote } from '@/generated/rpc-types'
import { rpcKey, rpcMutation, rpcQuery } from '@/lib/rpc'
import { putWithProgress } from '@/lib/upload'

export type { VoiceNote }

export const VOICE_NOTES_KEY = rpcKey('voiceNote.list')

export function useVoiceNotes() {
  return useQuery({ queryKey: VOICE_NOTES_KEY, queryFn: () => rpcQuery('voiceNote.list') })
}

export function useRenameVoiceNote() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (input: { id: string; filename: string }) => rpcMutation('voiceNote.rename', input),
    onSuccess: () => client.invalidateQueries({ queryKey: VOICE_NOTES_KEY }),
  })
}

export function useDeleteVoiceNote() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (input: { id: string }) => rpcMutation('voiceNote.delete', input),
    onSuccess: () => client.invalidateQueries({ queryKey: VOICE_NOTES_KEY }),
  })
}

/** The audio file's extension for `contentType`, added to names that have none. */
export function extensionFor(contentType: string): string {
  const base = contentType.split(';')[0].trim().toLowerCase()
  const known: Record<string, string> = {
    'audio/mp4': '.m4a',
    'audio/webm': '.webm',
    'audio/ogg': '.ogg',
    'audio/wav': '.wav',
    'audio/mpeg': '.mp3',
  }
  return known[base] ?? ''
}

/** `name` with the format's extension when it does not already end with one. */
export function withExtension(name: string, contentType: string): string {
  const extension = extensionFor(contentType)
  const trimmed = name.trim()
  return extension && !trimmed.toLowerCase().endsWith(extension) ? `${trimmed}${extension}` : trimmed
}

/**
 * Uploads `audio` as a voice note: a signed URL from `leader.uploadVoiceNote`, the PUT (with
 * progress), then `leader.transferVoiceNoteToPersonalFolder` so it is listed under Voice notes.
 * Returns the new note's id. Server field errors reject as the tRPC error; storage failures
 * as an `UploadError`.
 */
export async function uploadVoiceNote(
  audio: Blob,
  filename: string,
  onProgress: (fraction: number) => void,
): Promise<{ id: string; key: string }> {
  const contentType = audio.type || 'application/octet-stream'
  const target = await rpcMutation('leader.uploadVoiceNote', {
    filename,
    contentType,
    size: audio.size,
  })
  await putWithProgress(target, audio, filename, onProgress)
  const { id } = await rpcMutation('leader.transferVoiceNoteToPersonalFolder', { key: target.key })
  return { id, key: target.key }
}
