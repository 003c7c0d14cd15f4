//! 'Record voice note': recording starts when the dialog opens and stops when it closes
//! (Stop, Escape or the close button); the recording is then handed on to be saved.
//! MediaRecorder writes audio/mp4 where the browser can, else the best it supports.

import { useEffect, useRef, useState } from 'react'

import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toaster'

import { baseType, formatDuration, pickRecordingType } from '@/lib/recording'

type Phase = 'starting' | 'recording'

export function RecordVoiceNoteDialog({
  open,
  onRecorded,
  onClose,
}: {
  open: boolean
  /** Called once with the finished recording (not when the microphone was refused). */
  onRecorded: (audio: Blob) => void
  onClose: () => void
}) {
  const { toast } = useToast()
  const [phase, setPhase] = useState<Phase>('starting')
  const [seconds, setSeconds] = useState(0)
  const recorder = useRef<MediaRecorder | null>(null)
  const handlers = useRef({ onRecorded, onClose, toast })
  handlers.current = { onRecorded, onClose, toast }

  useEffect(() => {
    if (!open) return
    let cancelled = false
    let stream: MediaStream | null = null
    let timer: number | undefined
    setPhase('starting')
    setSeconds(0)

    const start = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ audio: true })
      } catch {
        if (cancelled) return
        handlers.current.toast({ title: 'Unable to access microphone', tone: 'error' })
        handlers.current.onClose()
        return
      }
      if (cancelled) {
        stream.getTracks().forEach((track) => track.stop())
        return
      }
      const mimeType = pickRecordingType((type) => MediaRecorder.isTypeSupported(type))
      const media = new MediaRecorder(stream, mimeType ? { mimeType } : undefined)
      const chunks: Blob[] = []
      media.ondataavailable = (event) => {
        if (event.data.size > 0) chunks.push(event.data)
      }
      media.onstop = () => {
        stream?.getTracks().forEach((track) => track.stop())
        const type = baseType(media.mimeType || mimeType)
        if (chunks.length > 0) handlers.current.onRecorded(new Blob(chunks, { type }))
      }
      media.start(1000)
      recorder.current = media
      const startedAt = performance.now()
      timer = window.setInterval(() => setSeconds((performance.now() - startedAt) / 1000), 250)
      setPhase('recording')
    }
    void start()

    return () => {
      cancelled = true
      window.clearInterval(timer)
      const media = recorder.current
      recorder.current = null
      if (media && media.state !== 'inactive') media.stop()
      else stream?.getTracks().forEach((track) => track.stop())
    }
  }, [open])

  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent>
        <DialogTitle className="text-lg font-semibold">Record voice note</DialogTitle>
        <DialogDescription className="mt-1 text-sm text-muted-foreground">
          Recording runs while this window is open. Stop to name and save it.
        </DialogDescription>
        <div className="mt-6 flex flex-col items-center gap-4">
          <p role="timer" aria-label="Recording time" className="font-mono text-4xl tabular-nums">
            {formatDuration(seconds)}
          </p>
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            {phase === 'recording' && <span aria-hidden="true" className="size-2.5 animate-pulse rounded-full bg-destructive" />}
            {phase === 'recording' ? 'Recording' : 'Starting the microphone…'}
          </p>
          <Button onClick={onClose} disabled={phase !== 'recording'}>
            Stop
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  )
}
