//! Adding a file to a task: `leader.uploadTaskFile` (a signed URL), then the PUT with
//! progress. The server reads the file's text once the bytes have arrived.

import { rpcMutation } from '@/lib/rpc'
import { putWithProgress } from '@/lib/upload'

/** A type the browser may not know, from the extension (the server checks the same list). */
export function contentTypeOf(file: { name: string; type: string }): string {
  if (file.type) return file.type
  const extension = file.name.split('.').pop()?.toLowerCase() ?? ''
  const known: Record<string, string> = {
    md: 'text/markdown',
    csv: 'text/csv',
    txt: 'text/plain',
    m4a: 'audio/mp4',
    docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    pdf: 'application/pdf',
  }
  return known[extension] ?? 'application/octet-stream'
}

/**
 * Uploads `file` into task `taskId` and resolves with its key. Server field errors reject
 * as the tRPC error; storage failures as an `UploadError`.
 */
export async function uploadTaskFile(
  taskId: string,
  file: Blob,
  filename: string,
  onProgress: (fraction: number) => void,
): Promise<{ key: string }> {
  const target = await rpcMutation('leader.uploadTaskFile', {
    taskId,
    filename,
    contentType: contentTypeOf({ name: filename, type: file.type }),
    size: file.size,
  })
  await putWithProgress(target, file, filename, onProgress)
  return { key: target.key }
}
