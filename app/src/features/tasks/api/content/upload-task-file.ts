//! Adding a file to a task: sent in parts that resume after a cut connection
//! (`lib/resumable-upload`, loaded on first use; `upload.start` with kind `taskFile` adds the
//! item). The server reads the file's text once the bytes have arrived.

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
  const { uploadResumable } = await import('@/lib/resumable-upload')
  const { key } = await uploadResumable({
    body: file,
    filename,
    contentType: contentTypeOf({ name: filename, type: file.type }),
    kind: 'taskFile',
    taskId,
    onProgress,
  })
  return { key }
}
