//! `GET /api/reports/{id}/download?format=docx|pdf`: the saved report as a Word document
//! or a PDF (the browser downloads it: the server sends it as an attachment).

export type DownloadFormat = 'docx' | 'pdf'

export function downloadUrl(id: string, format: DownloadFormat): string {
  return `/api/reports/${encodeURIComponent(id)}/download?format=${format}`
}
