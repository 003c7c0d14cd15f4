//! A task's content (spec: the content step): pull in voice notes, upload files (signed PUT
//! with a progress bar each), take photos of handwritten notes (the photo analyser in its
//! notes mode) and record on the spot (the dictation drawer, its WAV and transcript kept).
//! The Microsoft 365 part connects a Microsoft account and imports OneDrive / SharePoint
//! files and Teams recordings (microsoft-365-part.tsx).
//! The overview lists every item with its state; it refreshes while anything is queued or
//! being transcribed or read. Each action is anchored for the onboarding tour.
//! Everything added is kept on the device first (the outbox, `api/content/add-content.ts`):
//! offline, it waits there, is listed under "Not sent yet", and is sent when the connection
//! returns.

import { useQueryClient } from '@tanstack/react-query'
import { useState, type ChangeEvent } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FilePicker } from '@/components/ui/file-picker'
import { Progress } from '@/components/ui/progress'
import { useToast } from '@/components/ui/toaster'
import { Section } from '@/components/section'
import { useDictation, usePhotoAnalyser } from '@/lib/capture'
import { formatDate } from '@/lib/format-date'
import { failureToast } from '@/lib/form-errors'
import type { SubmitOutcome } from '@/lib/outbox/outbox'
import { errorMessage, fieldErrors, invalidateRpc } from '@/lib/rpc'
import { uploadFailedToast } from '@/lib/upload'

import { addPhotoNotes, addTaskFile, addTaskRecording, photoNotesLater, useUnsentContent } from '../../api/content/add-content'
import { useTaskFiles } from '../../api/content/list-task-files'
import { ContentItem } from './content-item'
import { Microsoft365Part } from './microsoft-365-part'
import { recordingName } from './item-state'
import { VoiceNotesDialog } from './voice-notes-dialog'

/** The analyser's instructions in notes mode. */
export const NOTES_PROMPT =
  'Read the handwritten notes in these photos and write them out as plain text. Keep headings, lists and the order of the notes; do not add anything.'

interface Upload {
  id: number
  name: string
  percent: number
}

let nextUpload = 1

export function TaskContentSection({ taskId }: { taskId: string }) {
  const { toast } = useToast()
  const client = useQueryClient()
  const files = useTaskFiles(taskId)
  const analyser = usePhotoAnalyser()
  const dictation = useDictation()
  const unsent = useUnsentContent(taskId)
  const [voiceNotesOpen, setVoiceNotesOpen] = useState(false)
  const [uploads, setUploads] = useState<Upload[]>([])
  const [chosen, setChosen] = useState<string[]>([])
  const [problem, setProblem] = useState<string | null>(null)

  const refresh = () => invalidateRpc(client, 'leader.listTaskFiles')

  /**
   * Keeps one file on the device and sends it with its own progress bar: `true` once the server
   * has it, `false` when it waits in the outbox (no connection), `null` when it was refused
   * (toasted 'Upload failed' with its name, and the reason shown).
   */
  const send = async (
    name: string,
    start: (onProgress: (fraction: number) => void) => Promise<SubmitOutcome>,
  ): Promise<boolean | null> => {
    const id = nextUpload++
    setUploads((list) => [...list, { id, name, percent: 0 }])
    try {
      const outcome = await start((fraction) =>
        setUploads((list) => list.map((u) => (u.id === id ? { ...u, percent: fraction * 100 } : u))),
      )
      return outcome.sent
    } catch (error) {
      toast(uploadFailedToast(name))
      const fields = fieldErrors(error)
      setProblem(`${name}: ${Object.values(fields)[0] ?? errorMessage(error)}`)
      return null
    } finally {
      setUploads((list) => list.filter((u) => u.id !== id))
      void refresh()
    }
  }

  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(event.target.files ?? [])
    event.target.value = ''
    setChosen(picked.map((f) => f.name))
    setProblem(null)
    const sent = await Promise.all(
      picked.map((file) => send(file.name, (onProgress) => addTaskFile(taskId, file, file.name, onProgress))),
    )
    const kept = sent.filter((outcome) => outcome === false).length
    if (kept > 0)
      toast({
        title: kept === 1 ? 'File kept on this device.' : `${kept} files kept on this device.`,
        description: `${kept === 1 ? 'It' : 'They'} will be added to the task when Voicemark can be reached. The Outbox shows ${kept === 1 ? 'it' : 'them'}.`,
        tone: 'success',
      })
  }

  /** Keeps the notes as an item of the task, now or (no connection) when it can. */
  const keepPhotoNotes = async (name: string, text: string) => {
    try {
      const outcome = await addPhotoNotes(taskId, name, text)
      if (outcome.sent) toast({ title: 'Photo notes added', tone: 'success' })
      else
        toast({
          title: 'Photo notes kept on this device.',
          description: 'They will be added to the task when Voicemark can be reached. The Outbox shows them.',
          tone: 'success',
        })
    } catch (error) {
      toast(failureToast(error))
    }
  }

  const takePhotos = () => {
    const name = `Photo notes ${formatDate(new Date(), true)}`
    analyser.open({
      label: 'Add to task',
      prompt: NOTES_PROMPT,
      use: (text) => void keepPhotoNotes(name, text),
      later: photoNotesLater(taskId, name),
    })
  }

  const record = () =>
    dictation.open(() => {}, {
      label: 'Add to task',
      use: (wav, transcript) => {
        const name = recordingName(new Date())
        void send(name, (onProgress) => addTaskRecording(taskId, wav, name, transcript, onProgress)).then((sent) => {
          if (sent === true) toast({ title: 'Recording added', tone: 'success' })
          if (sent === false)
            toast({
              title: 'Recording kept on this device.',
              description: 'It will be added to the task when Voicemark can be reached. The Outbox shows it.',
              tone: 'success',
            })
        })
      },
    })

  const items = files.data ?? []
  return (
    <Section title="Content">
      <p className="text-sm text-muted-foreground">
        Add what this task is based on. Recordings are transcribed and documents are read, so their text can be used
        when the task is filled in.
      </p>
      <div className="flex flex-wrap items-start gap-2">
        <Button type="button" variant="outline" data-tour="content-voice-notes" onClick={() => setVoiceNotesOpen(true)}>
          Pull in voice notes
        </Button>
        <div data-tour="content-upload">
          <FilePicker label="Upload files" multiple chosen={chosen} onChange={(event) => void onFiles(event)} />
        </div>
        <Button type="button" variant="outline" data-tour="content-photos" onClick={takePhotos}>
          Take photos of handwritten notes
        </Button>
        <Button type="button" variant="outline" data-tour="content-record" onClick={record}>
          Start recording
        </Button>
      </div>
      <Microsoft365Part taskId={taskId} />
      {uploads.length > 0 && (
        <ul className="space-y-2" aria-label="Uploads in progress">
          {uploads.map((upload) => (
            <li key={upload.id} className="space-y-1 text-sm">
              <span>{upload.name}</span>
              <Progress value={upload.percent} label={`Uploading ${upload.name}`} />
            </li>
          ))}
        </ul>
      )}
      {problem && <Alert>{problem}</Alert>}
      {unsent.length > 0 && (
        <div className="space-y-2">
          <h3 className="font-medium">Not sent yet</h3>
          <ul className="space-y-2" aria-label="Content not sent yet">
            {unsent.map((item) => (
              <li key={item.id} className="rounded-md border border-dashed border-border p-3 text-sm">
                <span className="font-medium break-words">{item.title}</span>
                <p className="text-muted-foreground">
                  {item.state === 'stuck'
                    ? `Not sent: ${item.reason ?? ''}`
                    : item.state === 'sending'
                      ? 'Sending…'
                      : 'Not sent yet: it is in the Outbox.'}
                </p>
              </li>
            ))}
          </ul>
        </div>
      )}
      <div data-tour="content-overview" className="space-y-2">
        <h3 className="font-medium">Content overview</h3>
        {files.isPending && <p className="text-sm">Loading…</p>}
        {files.isError && <Alert>{errorMessage(files.error)}</Alert>}
        {files.data && items.length === 0 && (
          <p className="text-sm text-muted-foreground">Nothing added yet.</p>
        )}
        {items.length > 0 && (
          <ul className="space-y-2" aria-label="Task content">
            {items.map((item) => (
              <ContentItem key={item.id} taskId={taskId} item={item} />
            ))}
          </ul>
        )}
      </div>
      <Alert tone="info">
        Tips: PDFs and Word files are read as text; scanned pages without a text layer are better added as photos of
        notes. Recordings are transcribed after they upload: the state changes to Ready when the text is in. A failed
        item says why; fix the cause and press Retry.
      </Alert>
      <VoiceNotesDialog taskId={taskId} open={voiceNotesOpen} onOpenChange={setVoiceNotesOpen} />
    </Section>
  )
}
