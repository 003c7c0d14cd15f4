//! 'Pull in voice notes': the caller's voice notes with a checkbox each (those already in
//! the task are shown checked and disabled), 50 at a time with "Show more voice notes"; Add
//! pulls the chosen ones in (through the
//! outbox: a dropped connection keeps the choice on the device and sends it later).

import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'
import { z } from 'zod'

import { ShowMore } from '@/components/show-more'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toaster'
import { formatDate } from '@/lib/format-date'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'

import { addVoiceNotes } from '../../api/content/add-content'
import { useTaskVoiceNotes } from '../../api/content/task-voice-notes'

const schema = z.object({
  voiceNoteIds: z.array(z.string()).min(1, 'Choose at least one voice note.'),
})
type Values = z.infer<typeof schema>

export function VoiceNotesDialog({
  taskId,
  open,
  onOpenChange,
}: {
  taskId: string
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { toast } = useToast()
  const notes = useTaskVoiceNotes(taskId, open)
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { voiceNoteIds: [] } })

  useEffect(() => {
    if (open) reset({ voiceNoteIds: [] })
  }, [open, reset])

  const onSubmit = handleSubmit(async (values) => {
    try {
      const outcome = await addVoiceNotes(taskId, values.voiceNoteIds)
      if (outcome.sent) {
        const { added } = outcome.value as { added: number }
        toast({ title: added === 1 ? 'Voice note added' : `${added} voice notes added`, tone: 'success' })
      } else
        toast({
          title: 'Kept on this device.',
          description: 'The voice notes will be added to the task when Voicemark can be reached. The Outbox shows them.',
          tone: 'success',
        })
      onOpenChange(false)
    } catch (error) {
      if (!setServerErrors(error, setError, ['voiceNoteIds'])) toast(failureToast(error))
    }
  })

  const list = notes.data?.pages.flatMap((page) => page.notes) ?? []
  const total = notes.data?.pages[0]?.total ?? 0
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[85dvh] max-w-lg overflow-y-auto">
        <DialogTitle className="text-lg font-semibold">Pull in voice notes</DialogTitle>
        <DialogDescription className="text-sm text-muted-foreground">
          Choose voice notes from your personal folder. They are transcribed and added to this task; the notes stay in
          your folder.
        </DialogDescription>
        <form onSubmit={onSubmit} className="mt-4 space-y-4" noValidate>
          {notes.isPending && <p className="text-sm">Loading your voice notes…</p>}
          {notes.isError && <Alert>{errorMessage(notes.error)}</Alert>}
          {notes.data && list.length === 0 && (
            <Alert tone="info">You have no voice notes yet. Record one from Voice notes, then pull it in here.</Alert>
          )}
          {list.length > 0 && (
            <fieldset className="space-y-2" aria-describedby={errors.voiceNoteIds ? 'voice-notes-error' : undefined}>
              <legend className="sr-only">Your voice notes</legend>
              {list.map((note) => (
                <label key={note.id} className="flex items-center gap-3 rounded-md border border-border p-2 text-sm">
                  <input
                    type="checkbox"
                    value={note.id}
                    disabled={note.added}
                    defaultChecked={note.added}
                    className="size-4 focus-visible:ring-3 focus-visible:ring-ring"
                    {...(note.added ? {} : register('voiceNoteIds'))}
                  />
                  <span className="flex-1 truncate">{note.filename}</span>
                  <span className="text-xs text-muted-foreground">
                    {note.added ? 'Already added' : formatDate(note.createdAt)}
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          {notes.data && notes.data.pages.length + (notes.hasNextPage ? 1 : 0) > 1 && (
            <ShowMore
              shown={list.length}
              total={total}
              noun="voice notes"
              more={notes.hasNextPage}
              loading={notes.isFetchingNextPage}
              onMore={() => void notes.fetchNextPage()}
            />
          )}
          {errors.voiceNoteIds && (
            <p id="voice-notes-error" className="text-sm text-destructive">
              {errors.voiceNoteIds.message}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" disabled={isSubmitting || list.every((n) => n.added)}>
              {isSubmitting ? 'Adding…' : 'Add'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
