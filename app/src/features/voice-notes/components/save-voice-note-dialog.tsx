//! 'Save voice note': a filename (required, defaulting to the date) and 'Save to personal
//! folder' (checked by default). Checked: upload with a progress bar and keep the note in
//! the user's Voice notes. Unchecked: nothing leaves the device; the file is downloaded.

import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'

import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { Progress } from '@/components/ui/progress'
import { useToast } from '@/components/ui/toaster'
import { getCore } from '@/lib/core'
import { withExtension } from '@/lib/recording'
import { setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'
import { UploadError, uploadFailedToast } from '@/lib/upload'

import { VOICE_NOTES_KEY } from '../api/list-voice-notes'
import { outbox } from '@/lib/outbox/outbox'
import { filenameProblem } from '../filename-rule'

interface SaveValues {
  filename: string
  personalFolder: boolean
}

/** Saves the recording to the device with the browser's download. */
function download(audio: Blob, filename: string) {
  const url = URL.createObjectURL(audio)
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000)
}

export function SaveVoiceNoteDialog({
  audio,
  defaultName,
  onSaved,
  onCancel,
}: {
  /** The recording; the dialog is open while there is one. */
  audio: Blob | null
  defaultName: string
  onSaved?: (note: { id: string | null; filename: string }) => void
  onCancel: () => void
}) {
  const { toast } = useToast()
  const client = useQueryClient()
  const [progress, setProgress] = useState<number | null>(null)
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SaveValues>({ defaultValues: { filename: defaultName, personalFolder: true } })

  useEffect(() => {
    if (audio) {
      reset({ filename: defaultName, personalFolder: true })
      setProgress(null)
    }
  }, [audio, defaultName, reset])

  const onSubmit = handleSubmit(async ({ filename, personalFolder }) => {
    if (!audio) return
    const problem = await filenameProblem(filename)
    if (problem) {
      setError('filename', { message: problem })
      return
    }
    const name = withExtension(filename, audio.type)
    if (!personalFolder) {
      download(audio, name)
      toast({ title: 'Voice note saved.', description: `${name} was downloaded to this device.`, tone: 'success' })
      onSaved?.({ id: null, filename: name })
      return
    }
    const tooBig = await getCore().uploadSizeError(audio.size).catch(() => undefined)
    if (tooBig) {
      setError('filename', { message: tooBig })
      return
    }
    setProgress(0)
    try {
      // Kept on the device first (the outbox), so a dropped connection loses nothing.
      const outcome = await outbox.submit(`Voice note ${name}`, { type: 'voiceNote', audio, filename: name }, ['voiceNote.'], (fraction) =>
        setProgress(fraction * 100),
      )
      if (outcome.sent) {
        await client.invalidateQueries({ queryKey: VOICE_NOTES_KEY })
        toast({ title: 'Voice note saved.', tone: 'success' })
      } else {
        toast({
          title: 'Voice note kept on this device.',
          description: 'It will be sent when Voicemark can be reached. The Outbox shows it.',
          tone: 'success',
        })
      }
      onSaved?.({ id: outcome.sent ? (outcome.id ?? null) : null, filename: name })
    } catch (error) {
      setProgress(null)
      if (setServerErrors(error, setError, ['filename'])) return
      if (error instanceof UploadError) toast(uploadFailedToast(error.filename))
      else toast({ ...uploadFailedToast(name), description: `${name}: ${errorMessage(error)}` })
    }
  })

  return (
    <Dialog
      open={audio !== null}
      onOpenChange={(open) => {
        if (!open && !isSubmitting) onCancel()
      }}
    >
      <DialogContent>
        <DialogTitle className="text-lg font-semibold">Save voice note</DialogTitle>
        <DialogDescription className="mt-1 text-sm text-muted-foreground">
          Name the recording and choose where to keep it.
        </DialogDescription>
        <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
          <FormField label="Filename" error={errors.filename?.message}>
            <Input
              autoComplete="off"
              {...register('filename')}
            />
          </FormField>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" {...register('personalFolder')} />
            Save to personal folder
          </label>
          {progress !== null && <Progress value={progress} label="Uploading voice note" />}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" disabled={isSubmitting} onClick={onCancel}>
              Discard
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              Save
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
