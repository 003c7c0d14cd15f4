//! Saving a recording as a voice note: `leader.uploadVoiceNote` (a signed URL), the PUT with
//! progress, then `leader.transferVoiceNoteToPersonalFolder` so it is listed under Voice notes.
//! Offered to the dictation drawer through the shell's voice-notes context (`lib/capture.tsx`).

import { rpcMutation } from '@/lib/rpc'
import { putWithProgress } from '@/lib/upload'

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
  const target = await rpcMutation('leader.uploadVoiceNote', {
    filename,
    contentType,
    size: audio.size,
  })
  await putWithProgress(target, audio, filename, onProgress)
  const { id } = await rpcMutation('leader.transferVoiceNoteToPersonalFolder', { key: target.key })
  return { id, key: target.key }
}
