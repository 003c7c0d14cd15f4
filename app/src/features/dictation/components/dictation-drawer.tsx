//! The live dictation drawer (spec sections 4 and 8): dictation starts when it opens and ends
//! at Stop or the 15-minute limit. The transcript appears live; afterwards the recording is
//! one WAV that can be saved as a voice note, the transcript can be inserted into the
//! feedback, and both can be kept as a draft.

import { useEffect, useMemo, useRef, useState, type MutableRefObject } from 'react'

import { FeatureOff } from '@/components/feature-off'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogDescription, DialogTitle, SheetContent } from '@/components/ui/dialog'
import { Progress } from '@/components/ui/progress'
import { useToast } from '@/components/ui/toaster'
import { useVoiceNoteRecorder, type DictationOptions, type DictationRecordingTarget } from '@/lib/capture'
import { outbox } from '@/lib/outbox/outbox'
import { useSession } from '@/lib/session'
import { defaultNoteName, formatDuration } from '@/lib/recording'
import { errorMessage } from '@/lib/rpc'
import { UploadError, uploadFailedToast } from '@/lib/upload'
import { useCoreLimits } from '@/lib/use-core'

import { mintSpeechCredential } from '../api/get-deepgram-key'
import { useFeatures } from '@/lib/features'
import { DictationSession, type DictationSnapshot } from '../dictation-session'

const MIC_ERROR = 'Unable to connect to microphone. Please check your settings and try again.'

function useDictationSession(maxSeconds: number) {
  const [snapshot, setSnapshot] = useState<DictationSnapshot | null>(null)
  const session = useRef<DictationSession | null>(null)
  const userId = useSession().session?.user.id ?? null
  useEffect(() => {
    const current = new DictationSession({ maxSeconds, credential: mintSpeechCredential, onChange: setSnapshot, userId })
    session.current = current
    setSnapshot(current.snapshot)
    current.start()
    return () => {
      current.dispose()
      session.current = null
    }
  }, [maxSeconds, userId])
  return { snapshot, session }
}

/**
 * Asked before the drawer closes: `true` keeps it open. A dictation still running, or a
 * recording not yet inserted, saved or downloaded, is never dropped silently: the first close
 * stops the dictation and says what closing again would discard; the second close discards.
 */
type CloseGuard = () => boolean

function DictationPanel({
  onInsert,
  insertLabel,
  onClose,
  closeGuard,
  recording,
}: {
  onInsert: (text: string) => void
  insertLabel: string
  onClose: () => void
  closeGuard: MutableRefObject<CloseGuard | null>
  recording?: DictationRecordingTarget
}) {
  const { toast } = useToast()
  const voiceNotes = useVoiceNoteRecorder()
  const limits = useCoreLimits()
  // The limit in force when dictation started (a later answer must not restart it).
  const [dictationLimitSeconds] = useState(limits.dictationLimitSeconds)
  const { snapshot, session } = useDictationSession(dictationLimitSeconds)
  const [saving, setSaving] = useState<Blob | null>(null)
  const [draftProgress, setDraftProgress] = useState<number | null>(null)
  const [draftSaved, setDraftSaved] = useState(false)
  const [kept, setKept] = useState(false)
  const [closeWarned, setCloseWarned] = useState(false)
  const wavUrl = useMemo(() => (snapshot?.wav ? URL.createObjectURL(snapshot.wav) : null), [snapshot?.wav])
  useEffect(() => () => void (wavUrl && URL.revokeObjectURL(wavUrl)), [wavUrl])

  const unsaved =
    !!snapshot &&
    snapshot.microphone !== 'error' &&
    (snapshot.stopped ? !!snapshot.wav && !kept && !draftSaved : snapshot.seconds > 0 || !!snapshot.transcript.trim())
  closeGuard.current = () => {
    if (!unsaved || closeWarned) return false
    if (snapshot && !snapshot.stopped) void session.current?.stop()
    setCloseWarned(true)
    return true
  }

  if (!snapshot) return null
  const { microphone, connection, transcript, interim, seconds, wav, stopped } = snapshot
  const text = transcript.trim()

  const saveToDrafts = async () => {
    if (!wav || !text) return
    const filename = `${defaultNoteName(new Date(), 'Dictation draft')}.wav`
    setDraftProgress(0)
    try {
      // Kept on the device first (the outbox): the transcript joins the note once it is sent.
      const outcome = await outbox.submit(
        `Dictation draft ${filename}`,
        { type: 'voiceNote', audio: wav, filename, transcript: text },
        ['voiceNote.'],
        (fraction) => setDraftProgress(fraction * 100),
      )
      setDraftSaved(true)
      if (outcome.sent) toast({ title: 'Saved to drafts.', description: filename, tone: 'success' })
      else
        toast({
          title: 'Draft kept on this device.',
          description: `${filename} will be saved to your drafts when Voicemark can be reached. The Outbox shows it.`,
          tone: 'success',
        })
    } catch (error) {
      toast(error instanceof UploadError ? uploadFailedToast(filename) : { ...uploadFailedToast(filename), description: `${filename}: ${errorMessage(error)}` })
    } finally {
      setDraftProgress(null)
    }
  }

  let body
  if (microphone === 'error') body = <Alert>{MIC_ERROR}</Alert>
  else if (connection === 'connecting' && !stopped)
    body = <p className="text-sm text-muted-foreground">Establishing connection, please wait...</p>
  else if (!text && !interim)
    body = <p className="text-sm text-muted-foreground">Your transcript will appear here once you start speaking.</p>
  else
    body = (
      <p className="text-sm whitespace-pre-wrap" data-testid="transcript">
        {text}
        {interim && <span className="text-muted-foreground"> {interim}</span>}
      </p>
    )

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto p-5">
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-muted-foreground">Microphone</dt>
          <dd data-testid="microphone-state" className="font-medium">
            {microphone}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">Connection</dt>
          <dd data-testid="connection-state" className="font-medium">
            {connection}
          </dd>
        </div>
      </dl>
      <p role="timer" aria-label="Dictation time" className="font-mono text-3xl tabular-nums">
        {formatDuration(seconds)} <span className="text-base text-muted-foreground">/ {formatDuration(dictationLimitSeconds)}</span>
      </p>
      {snapshot.limitReached && (
        <Alert tone="info">The {Math.round(dictationLimitSeconds / 60)}-minute limit was reached, so dictation stopped.</Alert>
      )}
      {snapshot.connectionError && microphone !== 'error' && <Alert>{snapshot.connectionError}</Alert>}
      {closeWarned && unsaved && (
        <Alert tone="info">
          Dictation stopped. Insert, save or download the recording, or close again to discard it.
        </Alert>
      )}
      <section aria-label="Transcript" aria-live="polite" className="min-h-32 rounded-md border border-border p-3">
        {body}
      </section>
      {!stopped && microphone !== 'error' && (
        <div className="flex gap-2">
          <Button
            variant="outline"
            disabled={microphone !== 'open' && microphone !== 'paused'}
            onClick={() => void (microphone === 'paused' ? session.current?.resume() : session.current?.pause())}
          >
            {microphone === 'paused' || microphone === 'pausing' ? 'Resume' : 'Pause'}
          </Button>
          <Button onClick={() => void session.current?.stop()}>Stop</Button>
        </div>
      )}
      {stopped && !wav && microphone !== 'error' && <p role="status" className="text-sm">Finishing the recording…</p>}
      {wav && wavUrl && (
        <div className="space-y-3">
          <audio controls src={wavUrl} className="w-full" aria-label="Play the dictation" />
          <div className="flex flex-wrap gap-2">
            {recording ? (
              <Button onClick={() => recording.use(wav, text)}>{recording.label}</Button>
            ) : (
              <Button onClick={() => onInsert(text)} disabled={!text}>
                {insertLabel}
              </Button>
            )}
            <Button variant="outline" onClick={() => setSaving(wav)}>
              Save as voice note
            </Button>
            {text && (
              <Button variant="outline" onClick={() => void saveToDrafts()} disabled={draftProgress !== null || draftSaved}>
                Save to drafts
              </Button>
            )}
            <Button variant="link" asChild>
              <a href={wavUrl} download="dictation.wav" onClick={() => setKept(true)}>
                Download recording
              </a>
            </Button>
          </div>
          {draftProgress !== null && <Progress value={draftProgress} label="Saving the draft" />}
        </div>
      )}
      <div className="mt-auto flex justify-end">
        <Button variant="ghost" onClick={onClose}>
          Close
        </Button>
      </div>
      <voiceNotes.SaveDialog
        audio={saving}
        defaultName={defaultNoteName(new Date(), 'Dictation')}
        onSaved={() => {
          setSaving(null)
          setKept(true)
        }}
        onCancel={() => setSaving(null)}
      />
    </div>
  )
}

export function DictationDrawer({
  open,
  onOpenChange,
  onInsert,
  recording,
  options,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** Puts the transcript where the feedback is written. */
  onInsert: (text: string) => void
  /** Keeps the recording itself (with its transcript) instead, e.g. in a task's content. */
  recording?: DictationRecordingTarget
  /** The title, description and insert button's text for another use than feedback. */
  options?: DictationOptions
}) {
  const features = useFeatures(open)
  const closeGuard = useRef<CloseGuard | null>(null)
  // Escape, a click outside, the header's close button and the panel's Close all come here.
  const requestClose = () => {
    if (closeGuard.current?.()) return
    closeGuard.current = null
    onOpenChange(false)
  }
  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : requestClose())}>
      <SheetContent className="right-0 left-auto w-[28rem] border-r-0 border-l">
        <div className="flex items-start gap-3 border-b border-border p-5">
          <div className="flex-1 space-y-1">
            <DialogTitle className="text-lg font-semibold">{options?.title ?? 'Live dictation'}</DialogTitle>
            <DialogDescription className="text-sm text-muted-foreground">
              {options?.description ?? 'Speak your feedback; the transcript appears as you talk.'}
            </DialogDescription>
          </div>
          <Button variant="ghost" size="sm" aria-label="Close dictation" onClick={requestClose}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M6 6l12 12M18 6 6 18" />
            </svg>
          </Button>
        </div>
        {features.isPending && <p className="p-5 text-sm">Loading…</p>}
        {features.isError && <div className="p-5"><Alert>{errorMessage(features.error)}</Alert></div>}
        {features.data && !features.data.dictation && (
          <div className="p-5">
            <FeatureOff capability="dictation" />
          </div>
        )}
        {open && features.data?.dictation && (
          <DictationPanel
            insertLabel={options?.insertLabel ?? 'Insert into feedback'}
            closeGuard={closeGuard}
            onClose={requestClose}
            recording={
              recording && {
                label: recording.label,
                use: (wav, text) => {
                  recording.use(wav, text)
                  closeGuard.current = null
                  onOpenChange(false)
                },
              }
            }
            onInsert={(text) => {
              onInsert(text)
              closeGuard.current = null
              onOpenChange(false)
            }}
          />
        )}
      </SheetContent>
    </Dialog>
  )
}
