//! Sends one file to `/api/submissions/{id}/{token}/files` with XMLHttpRequest, which (unlike
//! fetch) reports upload progress. The server checks the total size and the type again.

export interface UploadedFile {
  id: string
  filename: string
  contentType: string
  sizeBytes: number
}

/** A refused or failed upload, with the server's sentence when it sent one. */
export class UploadError extends Error {
  override name = 'UploadError'
  readonly status: number
  constructor(message: string, status: number) {
    super(message)
    this.status = status
  }
}

/** Uploads `file`; `onProgress` receives 0..1 as bytes leave the browser. */
export function uploadSubmissionFile(
  id: string,
  token: string,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `/api/submissions/${encodeURIComponent(id)}/${encodeURIComponent(token)}/files`)
    xhr.setRequestHeader('x-filename', encodeURIComponent(file.name))
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream')
    xhr.responseType = 'json'
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    })
    xhr.addEventListener('load', () => {
      const body = xhr.response as { error?: string } | UploadedFile | null
      if (xhr.status === 201 && body && 'id' in body) {
        onProgress(1)
        resolve(body)
      } else {
        const message = body && 'error' in body && body.error ? body.error : `The server answered ${xhr.status}.`
        reject(new UploadError(message, xhr.status))
      }
    })
    xhr.addEventListener('error', () => reject(new UploadError('The connection failed.', 0)))
    xhr.addEventListener('abort', () => reject(new UploadError('The upload was cancelled.', 0)))
    xhr.send(file)
  })
}
