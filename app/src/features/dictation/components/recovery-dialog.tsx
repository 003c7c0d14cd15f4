//! "Recovered dictation from {dd/MM/yyyy, HH:mm} ({m} min {s} s)": a dictation still being
//! recorded when its tab closed, crashed or the device restarted was kept on the device
//! second by second (lib/outbox/recordings.ts). Save sends it, with its transcript, to the
//! user's voice notes through the outbox; Discard deletes it. One at a time, newest first.

import { useEffect, useState } from 'react'

import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toaster'
import { formatDate } from '@/lib/format-date'
import { outbox } from '@/lib/outbox/outbox'
import { forgetRecording, recordedLength, recordingsToRecover, recoveredWav, type Recovered } from '@/lib/outbox/recordings'
import { defaultNoteName } from '@/lib/recording'
import { errorMessage } from '@/lib/rpc'

/** The dialog's title. */
export function recoveredTitle(startedAt: number, seconds: number): string {
  return `Recovered dictation from ${formatDate(startedAt, true)} (${recordedLength(seconds)})`
}

export function RecoveryDialog({ userId }: { userId: string }) {
  const { toast } = useToast()
  const [found, setFound] = useState<Recovered[]>([])
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    recordingsToRecover(userId)
      .then((recordings) => live && setFound(recordings))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [userId])

  const current = found[0]
  if (!current) return null
  const next = () => setFound((list) => list.slice(1))

  const save = async () => {
    setBusy(true)
    setProblem(null)
    try {
      const filename = `${defaultNoteName(new Date(current.startedAt), 'Recovered dictation')}.wav`
      const audio = await recoveredWav(current)
      await outbox.add(`Voice note ${filename}`, { type: 'voiceNote', audio, filename, transcript: current.transcript.trim() || undefined }, [
        'voiceNote.',
      ])
      await forgetRecording(current.id)
      outbox.kick()
      toast({ title: 'Recovered dictation saved.', description: `${filename} is in the Outbox until it reaches your voice notes.`, tone: 'success' })
      next()
    } catch (error) {
      setProblem(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  const discard = async () => {
    setBusy(true)
    await forgetRecording(current.id).catch(() => undefined)
    setBusy(false)
    next()
  }

  return (
    <Dialog open onOpenChange={() => undefined}>
      <DialogContent role="alertdialog" onEscapeKeyDown={(event) => event.preventDefault()} onInteractOutside={(event) => event.preventDefault()}>
        <DialogTitle className="text-lg font-semibold">{recoveredTitle(current.startedAt, current.seconds)}</DialogTitle>
        <DialogDescription className="mt-2 text-sm text-muted-foreground">
          This dictation was still being recorded when Voicemark closed. Save it to your voice notes, with its transcript,
          or discard it.
        </DialogDescription>
        {current.transcript.trim() && (
          <blockquote
            tabIndex={0}
            aria-label="Transcript so far"
            className="mt-4 max-h-40 overflow-y-auto rounded-md bg-muted p-3 text-sm whitespace-pre-wrap outline-none focus-visible:ring-3 focus-visible:ring-ring"
          >
            {current.transcript.trim()}
          </blockquote>
        )}
        {problem && (
          <p role="alert" className="mt-4 text-sm text-destructive">
            It could not be saved: {problem}
          </p>
        )}
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Button variant="outline" disabled={busy} onClick={() => void discard()}>
            Discard
          </Button>
          <Button disabled={busy} onClick={() => void save()}>
            Save
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  )
}
