//! A submission's work in the Feedback Hub: the written answer, and each file shown where the
//! browser can show it (pictures, with the photo analyser offered on them; a PDF in the
//! browser's viewer; a recording with a player), each with its download link.

import type { HubFile } from '@/generated/rpc-types'
import { Button } from '@/components/ui/button'

type Shown = 'image' | 'pdf' | 'audio' | 'other'

const IMAGE = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp'])
const AUDIO = new Set(['mp3', 'wav', 'm4a', 'ogg', 'oga', 'webm', 'aac', 'weba'])

/** How a file is shown, from its name (the server stores the type its extension names). */
export function shownAs(filename: string): Shown {
  const extension = filename.includes('.') ? filename.split('.').pop()!.toLowerCase() : ''
  if (IMAGE.has(extension)) return 'image'
  if (extension === 'pdf') return 'pdf'
  if (AUDIO.has(extension)) return 'audio'
  return 'other'
}

/** The file's address for showing in the page (the server answers `inline` for these types). */
const inline = (url: string) => `${url}?inline=1`

const linkClass = 'text-sm text-primary underline-offset-4 hover:underline'

export function SubmissionWork({
  content,
  files,
  pupil,
  onAnalysePhotos,
}: {
  content: string | null
  files: HubFile[]
  pupil: string
  /** Opens the photo analyser on the pictures handed in. */
  onAnalysePhotos?: (photos: { url: string; name: string }[]) => void
}) {
  const images = files.filter((file) => shownAs(file.filename) === 'image')
  return (
    <div className="space-y-3">
      <h3 className="text-sm font-medium">Their work</h3>
      {content ? (
        <p className="max-h-72 overflow-auto rounded-md bg-muted p-3 text-sm whitespace-pre-wrap">{content}</p>
      ) : (
        <p className="text-sm text-muted-foreground">No written answer.</p>
      )}
      {files.length > 0 && (
        <ul className="space-y-3" aria-label="Files handed in">
          {files.map((file) => {
            const shown = shownAs(file.filename)
            return (
              <li key={file.id} className="space-y-1.5">
                {shown === 'image' && (
                  <img
                    src={inline(file.url)}
                    alt={`${file.filename}, handed in by ${pupil}`}
                    loading="lazy"
                    className="max-h-96 max-w-full rounded-md border border-border object-contain"
                  />
                )}
                {shown === 'pdf' && (
                  <iframe
                    src={inline(file.url)}
                    title={`${file.filename} (PDF)`}
                    loading="lazy"
                    className="hidden h-96 w-full rounded-md border border-border sm:block"
                  />
                )}
                {shown === 'audio' && (
                  <audio controls preload="metadata" src={inline(file.url)} aria-label={file.filename} className="w-full" />
                )}
                <a href={file.url} className={linkClass}>
                  {shown === 'other' ? file.filename : `Download ${file.filename}`}
                </a>
              </li>
            )
          })}
        </ul>
      )}
      {images.length > 0 && onAnalysePhotos && (
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => onAnalysePhotos(images.map((file) => ({ url: inline(file.url), name: file.filename })))}
        >
          Analyse {images.length === 1 ? 'this photo' : `these ${images.length} photos`}
        </Button>
      )}
    </div>
  )
}
