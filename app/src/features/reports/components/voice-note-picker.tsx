//! The report form's voice notes: each with a transcript is a checkbox (its transcript's
//! first words shown); one without says "No transcript yet", cannot be chosen, and has a
//! Transcribe button (the list, with the pages loaded, is polled until its transcript
//! arrives). 20 come at first, newest first; "Show more voice notes" loads 20 more.

import { useState } from 'react'

import { ShowMore } from '@/components/show-more'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { formatDate, isoDate } from '@/lib/format-date'
import { errorMessage } from '@/lib/rpc'

import { onceEach, useMoreSources, useReportSources } from '../api/report-sources'
import { MAX_VOICE_NOTES } from '../api/save-report'
import { useTranscribeVoiceNote } from '../api/transcribe-voice-note'

export function VoiceNotePicker({
  selected,
  onChange,
  error,
}: {
  selected: string[]
  onChange: (ids: string[]) => void
  error?: string
}) {
  const [requested, setRequested] = useState<string[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  const transcribe = useTranscribeVoiceNote()
  const pollMs = requested.length > 0 ? 3000 : undefined
  const sources = useReportSources({}, pollMs)
  const more = useMoreSources({}, 'VOICE_NOTES', pollMs)
  const notes = onceEach([...(sources.data?.voiceNotes ?? []), ...more.pages.flatMap((page) => page.voiceNotes)])
  const notesNext = sources.data?.voiceNotesNext ?? null
  const total = Math.max(notes.length, sources.data?.voiceNotesTotal ?? 0)
  const waiting = requested.filter((id) => notes.some((n) => n.id === id && !n.hasTranscript))
  if (waiting.length !== requested.length) setRequested(waiting)
  const start = (id: string) => {
    setProblem(null)
    transcribe.mutate(
      { id },
      {
        onSuccess: () => setRequested((list) => [...list.filter((r) => r !== id), id]),
        onError: (e) => setProblem(errorMessage(e)),
      },
    )
  }
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id))

  return (
    <fieldset className="space-y-3" aria-describedby={error ? 'report-voice-error' : undefined}>
      <legend className="text-base font-semibold">Voice notes</legend>
      {problem && <Alert>{problem}</Alert>}
      {sources.isError && <Alert>Your voice notes could not be loaded: {errorMessage(sources.error)}</Alert>}
      {sources.data && notes.length === 0 && (
        <p className="text-sm text-muted-foreground">You have no voice notes. Their transcripts can be added to a report.</p>
      )}
      {notes.length > 0 && (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {selected.length} of at most {MAX_VOICE_NOTES} voice notes chosen
          </p>
          <ul className="max-h-64 space-y-1 overflow-y-auto rounded-md border border-border p-2" aria-label="Voice notes to add">
            {notes.map((note) => {
              const id = `report-note-${note.id}`
              return (
                <li key={note.id} className="flex items-start gap-3 rounded-md p-2">
                  <input
                    id={id}
                    type="checkbox"
                    className="mt-1 size-4 focus-visible:ring-3 focus-visible:ring-ring"
                    disabled={!note.hasTranscript}
                    checked={selected.includes(note.id)}
                    onChange={(e) => toggle(note.id, e.target.checked)}
                    aria-describedby={`${id}-about`}
                  />
                  <label htmlFor={id} className="min-w-0 flex-1">
                    <span className="font-medium">{note.filename}</span>{' '}
                    <time className="text-xs text-muted-foreground" dateTime={isoDate(note.createdAt)}>
                      {formatDate(note.createdAt)}
                    </time>
                    <span id={`${id}-about`} className="block text-xs text-muted-foreground">
                      {note.hasTranscript
                        ? note.preview
                        : requested.includes(note.id)
                          ? 'Transcribing…'
                          : 'No transcript yet'}
                    </span>
                  </label>
                  {!note.hasTranscript && !requested.includes(note.id) && (
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      disabled={transcribe.isPending}
                      onClick={() => start(note.id)}
                      aria-label={`Transcribe ${note.filename}`}
                    >
                      Transcribe
                    </Button>
                  )}
                </li>
              )
            })}
          </ul>
          {(notesNext !== null || more.pages.length > 0) && (
            <ShowMore
              shown={notes.length}
              total={total}
              noun="voice notes"
              more={more.hasMore(notesNext)}
              loading={more.loading}
              onMore={() => more.more(notesNext)}
            />
          )}
          {more.error && <Alert>More voice notes could not be loaded: {errorMessage(more.error)}</Alert>}
        </>
      )}
      {error && (
        <p id="report-voice-error" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  )
}
