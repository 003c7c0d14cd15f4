//! `/voice-notes` and `/leaders/voice-notes`: the signed-in user's voice notes, newest first,
//! 20 at a time with "Show more voice notes", each with a player, rename (inline) and delete
//! (after confirming); and 'Record voice note'.

import { Mic } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'

import { EmptyState } from '@/components/empty-state'
import { ShowMore } from '@/components/show-more'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { useVoiceNoteRecorder } from '@/lib/capture'
import { draftFor } from '@/lib/dictation-drafts'
import { formatDate, isoDate } from '@/lib/format-date'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'

import { useDeleteVoiceNote } from '../api/delete-voice-note'
import { useVoiceNotes, type VoiceNote } from '../api/list-voice-notes'
import { useRenameVoiceNote } from '../api/rename-voice-note'
import { filenameProblem } from '../filename-rule'

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

function RenameForm({ note, onDone }: { note: VoiceNote; onDone: () => void }) {
  const { toast } = useToast()
  const rename = useRenameVoiceNote()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ filename: string }>({ defaultValues: { filename: note.filename } })
  const onSubmit = handleSubmit(async ({ filename }) => {
    const problem = await filenameProblem(filename)
    if (problem) {
      setError('filename', { message: problem })
      return
    }
    try {
      await rename.mutateAsync({ id: note.id, filename: filename.trim() })
      onDone()
    } catch (error) {
      if (!setServerErrors(error, setError, ['filename'])) toast(failureToast(error))
    }
  })
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-end gap-2">
      <div className="min-w-48 flex-1">
        <FormField label="New filename" error={errors.filename?.message}>
          <Input
            autoFocus
            autoComplete="off"
            {...register('filename')}
          />
        </FormField>
      </div>
      <Button type="submit" size="sm" disabled={isSubmitting}>
        Save name
      </Button>
      <Button type="button" size="sm" variant="outline" onClick={onDone}>
        Cancel
      </Button>
    </form>
  )
}

function NoteItem({ note, onDelete }: { note: VoiceNote; onDelete: (note: VoiceNote) => void }) {
  const [renaming, setRenaming] = useState(false)
  const draft = draftFor(note.id)
  return (
    <li className="space-y-3 rounded-lg border border-border p-4" aria-label={note.filename}>
      {renaming ? (
        <RenameForm note={note} onDone={() => setRenaming(false)} />
      ) : (
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="truncate font-medium">{note.filename}</p>
            <p className="text-sm text-muted-foreground">
              <time dateTime={isoDate(note.createdAt)}>{formatDate(note.createdAt, true)}</time> · {formatSize(note.size)}
            </p>
          </div>
          <div className="flex gap-2">
            <Button size="sm" variant="outline" onClick={() => setRenaming(true)} aria-label={`Rename ${note.filename}`}>
              Rename
            </Button>
            <Button size="sm" variant="outline" onClick={() => onDelete(note)} aria-label={`Delete ${note.filename}`}>
              Delete
            </Button>
          </div>
        </div>
      )}
      <audio controls preload="none" src={note.url} className="w-full" aria-label={`Play ${note.filename}`} />
      {draft && (
        <p className="rounded-md bg-muted p-3 text-sm">
          <span className="font-medium">Dictation draft: </span>
          {draft.transcript}
        </p>
      )}
    </li>
  )
}

export function VoiceNotesPage() {
  const { toast } = useToast()
  const { openRecorder } = useVoiceNoteRecorder()
  const notes = useVoiceNotes()
  const shown = notes.data?.pages.flatMap((page) => page.notes)
  const remove = useDeleteVoiceNote()
  const [deleting, setDeleting] = useState<VoiceNote | null>(null)

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await remove.mutateAsync({ id: deleting.id })
      toast({ title: 'Voice note deleted.', tone: 'success' })
      setDeleting(null)
    } catch (error) {
      toast({ title: 'Something went wrong', description: errorMessage(error), tone: 'error' })
    }
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-2">
          <h1 className="text-3xl font-bold tracking-tight">Voice notes</h1>
          <p className="text-muted-foreground">Recordings saved to your personal folder.</p>
        </div>
        <Button onClick={openRecorder}>
          <Mic aria-hidden="true" className="size-4" />
          Record voice note
        </Button>
      </div>
      {notes.isError && <Alert>Your voice notes could not be loaded: {errorMessage(notes.error)}</Alert>}
      {notes.isPending && <p role="status">Loading…</p>}
      {shown && shown.length === 0 && (
        <EmptyState
          icon={Mic}
          title="No voice notes yet"
          action={
            <Button variant="outline" onClick={openRecorder}>
              Record a voice note
            </Button>
          }
        >
          Record one to keep it here.
        </EmptyState>
      )}
      {shown && shown.length > 0 && (
        <ul className="space-y-3" aria-label="Your voice notes">
          {shown.map((note) => (
            <NoteItem key={note.id} note={note} onDelete={setDeleting} />
          ))}
        </ul>
      )}
      {/* Only once there is more than a page, so a short list looks as it always has. */}
      {notes.data && (notes.hasNextPage || notes.data.pages.length > 1) && (
        <ShowMore
          shown={shown?.length ?? 0}
          total={notes.data.pages[0]?.total ?? 0}
          noun="voice notes"
          more={notes.hasNextPage}
          loading={notes.isFetchingNextPage}
          onMore={() => void notes.fetchNextPage()}
        />
      )}
      <Dialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <DialogContent role="alertdialog">
          <DialogTitle className="text-lg font-semibold">Delete voice note?</DialogTitle>
          <DialogDescription className="mt-2 text-sm text-muted-foreground">
            {deleting?.filename} will be deleted for good.
          </DialogDescription>
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="outline" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button onClick={confirmDelete} disabled={remove.isPending}>
              Delete
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  )
}
