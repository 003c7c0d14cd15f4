//! Saving a recording as a voice note: sent in parts that resume after a cut connection
//! (`lib/resumable-upload`, loaded on first use), then
//! `leader.transferVoiceNoteToPersonalFolder` so it is listed under Voice notes.
//! Offered to the dictation drawer through the shell's voice-notes context (`lib/capture.tsx`).

import { rpcMutation } from '@/lib/rpc'

/**
 * Uploads `audio` as a voice note and returns the new note's id. Server field errors reject
 * as the tRPC error; storage failures as an `UploadError`.
 */
export async function uploadVoiceNote(
  audio: Blob,
  filename: string,
  onProgress: (fraction: number) => void,
): Promise<{ id: string; key: string }> {
  const contentType = audio.type || 'application/octet-stream'
  const { uploadResumable } = await import('@/lib/resumable-upload')
  const { key } = await uploadResumable({ body: audio, filename, contentType, kind: 'voiceNote', onProgress })
  const { id } = await rpcMutation('leader.transferVoiceNoteToPersonalFolder', { key })
  return { id, key }
}
