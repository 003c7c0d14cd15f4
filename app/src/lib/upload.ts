//! Uploads straight to storage: an HTTP PUT of the file to the signed URL the server handed
//! out, with exactly the headers it signed (content-type, content-disposition). Through
//! XMLHttpRequest rather than fetch, because only XHR reports upload progress.

/** Where and how to PUT one file (the answer of `leader.uploadVoiceNote`, `user.uploadFile`...). */
export interface SignedUpload {
  url: string
  headers: Record<string, string>
}

/** Why a PUT failed; `filename` is what the user called the file, for the 'Upload failed' toast. */
export class UploadError extends Error {
  override name = 'UploadError'
  readonly filename: string
  readonly status: number

  constructor(filename: string, status: number, detail: string) {
    super(detail)
    this.filename = filename
    this.status = status
  }
}

/**
 * PUTs `body` to `target`, calling `onProgress` with the fraction sent (0 to 1). Resolves on
 * a 2xx answer; rejects with an `UploadError` on any other answer, a network failure or abort.
 */
export function putWithProgress(
  target: SignedUpload,
  body: Blob,
  filename: string,
  onProgress?: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('PUT', target.url)
    for (const [name, value] of Object.entries(target.headers)) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total)
    }
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(1)
        resolve()
      } else {
        reject(new UploadError(filename, xhr.status, `The storage answered ${xhr.status}`))
      }
    }
    xhr.onerror = () => reject(new UploadError(filename, 0, 'The upload could not reach the storage'))
    xhr.onabort = () => reject(new UploadError(filename, 0, 'The upload was cancelled'))
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(body)
  })
}

/** The toast for a failed upload (spec section 8: 'Upload failed', with the filename). */
export function uploadFailedToast(filename: string) {
  return { title: 'Upload failed', description: filename, tone: 'error' as const }
}

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
