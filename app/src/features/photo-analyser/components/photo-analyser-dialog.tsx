//! The take-photo analyser (spec sections 2 and 4): tabs Camera, Review and AI Response.
//! Photos (camera frames or chosen files) are prepared in the photo worker (upright, longest
//! side 1600 px, JPEG without metadata), reviewed with a prompt, and sent to
//! `notification.analyseImage`; the answer can be used as feedback, turned into notes (the
//! model writes notes from the same photos: the `NOTES` mode) or opened as a new message.
//! Back to camera resets photos, mode and result. Without AI photo analysis the dialog says
//! so before any photo is taken, and offers no camera. Loaded on first open (see
//! ../photo-analyser-context.tsx).

import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { useNavigate } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { Label } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { preparePhoto } from '@/lib/photo-prep'
import { errorMessage } from '@/lib/rpc'
import { useCoreLimits } from '@/lib/use-core'

import { outbox } from '@/lib/outbox/outbox'
import { useFeatures } from '@/lib/features'
import { saveAssistantDraft } from '@/lib/assistant-notes'
import type { AnalyserTarget } from '@/lib/capture'
import { notSwitchedOn } from '@/lib/features'
import { usePupilWord } from '@/lib/pupil-word'
import { MAX_PROMPT_CHARS } from '@/generated/limits'
import { CameraPanel } from './camera-panel'
import { TabList, TabPanel, useTabIds, type TabSpec } from './tabs'

export const PHOTO_LIMIT_MESSAGE = 'Photo limit reached: You can submit up to 10 photos to be analysed by AI.'
export const NOT_CONFIGURED = notSwitchedOn('photoAnalysis')
const DEFAULT_PROMPT =
  "Read the pupil's work in these photos and write short, constructive feedback: what went well and one next step."

type Tab = 'camera' | 'review' | 'response'
/** What the model writes from the photos: feedback on the work, or notes of what they show. */
type Mode = 'FEEDBACK' | 'NOTES'

interface Photo {
  id: number
  name: string
  url: string
  bytes: Uint8Array
  width: number
  height: number
}

let nextPhotoId = 1

function Analyser({ target, onClose }: { target?: AnalyserTarget; onClose(): void }) {
  const { toast } = useToast()
  const navigate = useNavigate()
  const limits = useCoreLimits()
  const features = useFeatures()
  const [sending, setSending] = useState(false)
  const [queued, setQueued] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const ids = useTabIds()
  const promptId = useId()
  const responseId = useId()

  const max = limits.maxPhotosPerAnalysis
  const limitMessage = limits.photoLimitMessage ?? PHOTO_LIMIT_MESSAGE
  const [tab, setTab] = useState<Tab>('camera')
  const [photos, setPhotos] = useState<Photo[]>([])
  const [preparing, setPreparing] = useState(0)
  const [prompt, setPrompt] = useState(target?.prompt ?? DEFAULT_PROMPT)
  const [result, setResult] = useState<string | null>(null)
  const [mode, setMode] = useState<Mode>('FEEDBACK')
  // Shown inside the dialog as well as in a toast: a modal dialog hides the toasts from
  // assistive technology.
  const [photoProblem, setPhotoProblem] = useState<string | null>(null)
  const notConfigured = features.data?.photoAnalysis === false

  // Object URLs of the thumbnails, released when the dialog closes.
  const urls = useRef(new Set<string>())
  const alive = useRef(true)
  useEffect(() => {
    alive.current = true
    const held = urls.current
    return () => {
      alive.current = false
      held.forEach((url) => URL.revokeObjectURL(url))
      held.clear()
    }
  }, [])

  // Reaching the limit moves on to Review (once, so the Camera tab can still be revisited).
  useEffect(() => {
    if (photos.length >= max) setTab((current) => (current === 'camera' ? 'review' : current))
  }, [photos.length, max])

  const addPhotos = (chosen: { blob: Blob; name: string }[]) => {
    setPhotoProblem(null)
    const room = Math.max(0, max - photos.length - preparing)
    const accepted = chosen.slice(0, room)
    if (accepted.length < chosen.length) toast({ title: limitMessage, tone: 'error' })
    setPreparing((n) => n + accepted.length)
    for (const { blob, name } of accepted) {
      preparePhoto(blob)
        .then((prepared) => {
          if (!alive.current) return
          const url = URL.createObjectURL(new Blob([prepared.bytes as BlobPart], { type: 'image/jpeg' }))
          urls.current.add(url)
          setPhotos((list) => [...list, { id: nextPhotoId++, name, url, ...prepared }])
        })
        .catch((error: unknown) => {
          if (!alive.current) return
          const problem = `${name}: ${errorMessage(error)}`
          setPhotoProblem(problem)
          toast({ title: 'This photo could not be used', description: problem, tone: 'error' })
        })
        .finally(() => alive.current && setPreparing((n) => n - 1))
    }
  }

  const remove = (id: number) => {
    const photo = photos.find((p) => p.id === id)
    if (photo) {
      URL.revokeObjectURL(photo.url)
      urls.current.delete(photo.url)
    }
    const rest = photos.filter((p) => p.id !== id)
    setPhotos(rest)
    if (rest.length === 0) setTab('camera')
  }

  const backToCamera = () => {
    urls.current.forEach((url) => URL.revokeObjectURL(url))
    urls.current.clear()
    setPhotos([])
    setResult(null)
    setMode('FEEDBACK')
    setQueued(false)
    setFailure(null)
    setTab('camera')
  }

  // Photos handed to the analyser (a pupil's pictures in the Feedback Hub) open on Review.
  const given = useRef(target?.photos)
  useEffect(() => {
    const photos = given.current
    given.current = undefined
    if (!photos?.length) return
    setTab('review')
    void Promise.all(
      photos.map(async ({ url, name }) => {
        const answer = await fetch(url, { credentials: 'same-origin' })
        if (!answer.ok) throw new Error(`${name} could not be opened.`)
        return { blob: await answer.blob(), name }
      }),
    )
      .then((chosen) => alive.current && addPhotos(chosen))
      .catch((error: unknown) => alive.current && setPhotoProblem(errorMessage(error)))
    // Once, when the dialog opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  // The camera panel says 'Unable to access camera' inside the dialog (an alert). No toast as
  // well: a toast is a layer of its own above the dialog, so the first Escape would close
  // the toast instead of the dialog.
  const cameraError = useCallback(() => undefined, [])

  /**
   * Sends the photos for feedback (with the prompt) or for notes (the server's notes prompt).
   * They are kept on the device first (the outbox): offline, or when the connection drops,
   * they are analysed when it returns and the answer waits in the Outbox.
   */
  const analysePhotos = async (next: Mode) => {
    setSending(true)
    setQueued(false)
    setFailure(null)
    try {
      const outcome = await outbox.submit(
        target?.later?.title ?? `${photos.length} photo${photos.length === 1 ? '' : 's'} to analyse`,
        {
          type: 'analysePhotos',
          photos: photos.map((photo) => new Blob([photo.bytes as BlobPart], { type: 'image/jpeg' })),
          prompt: next === 'NOTES' ? '' : prompt,
          mode: next,
          then: target?.later?.then,
        },
        target?.later?.refresh ?? [],
      )
      if (!alive.current) return
      if (outcome.sent) {
        setResult(outcome.answer ?? '')
        setMode(next)
        setTab('response')
      } else {
        setQueued(true)
      }
    } catch (error) {
      if (!alive.current) return
      setFailure(errorMessage(error))
      toast({ title: 'Something went wrong', description: errorMessage(error), tone: 'error' })
    } finally {
      if (alive.current) setSending(false)
    }
  }
  const confirm = () => void analysePhotos('FEEDBACK')

  const createMessage = () => {
    saveAssistantDraft(result ?? '')
    onClose()
    void navigate('/notifications/create?assistant=1')
  }

  const tabs: TabSpec<Tab>[] = [
    { value: 'camera', label: 'Camera' },
    { value: 'review', label: 'Review', disabled: photos.length === 0 },
    { value: 'response', label: 'AI Response', disabled: result === null },
  ]
  // An empty prompt is allowed: the server then asks for strengths and next steps.
  const canConfirm = photos.length > 0 && preparing === 0 && !notConfigured && !sending

  // Said before any photo is taken, and no camera is started for nothing.
  if (features.isPending) return <p role="status" className="text-sm text-muted-foreground">Loading…</p>
  if (notConfigured)
    return (
      <div className="space-y-4">
        <Alert tone="info">{NOT_CONFIGURED}</Alert>
        <div className="flex justify-end">
          <Button type="button" variant="outline" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    )

  return (
    <div className="space-y-4">
      <TabList<Tab> label="Photo analyser" tabs={tabs} value={tab} onChange={setTab} ids={ids} />
      {preparing > 0 && (
        <p role="status" className="text-sm text-muted-foreground">
          Preparing {preparing} photo{preparing === 1 ? '' : 's'}…
        </p>
      )}
      {tab === 'camera' && (
        <TabPanel value="camera" ids={ids}>
          {photoProblem && <Alert>This photo could not be used. {photoProblem}</Alert>}
          <CameraPanel
            count={photos.length + preparing}
            max={max}
            limitMessage={limitMessage}
            onPhotos={addPhotos}
            onCameraError={cameraError}
          />
          <div className="flex justify-end">
            <Button type="button" variant="outline" disabled={photos.length === 0} onClick={() => setTab('review')}>
              Review photos
            </Button>
          </div>
        </TabPanel>
      )}
      {tab === 'review' && (
        <TabPanel value="review" ids={ids}>
          {photoProblem && <Alert>This photo could not be used. {photoProblem}</Alert>}
          {photos.length >= max && (
            <p role="status" className="text-sm font-medium text-destructive">
              {limitMessage}
            </p>
          )}
          <ul aria-label="Photos to analyse" className="grid grid-cols-3 gap-2 sm:grid-cols-5">
            {photos.map((photo, index) => (
              <li key={photo.id} className="relative">
                <img
                  src={photo.url}
                  alt={`Photo ${index + 1} (${photo.width} × ${photo.height})`}
                  className="aspect-square w-full rounded-md border border-border object-cover"
                />
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  className="absolute top-1 right-1 h-7 bg-background/90 px-2"
                  aria-label={`Remove photo ${index + 1}`}
                  onClick={() => remove(photo.id)}
                >
                  <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
                    <path d="M6 6l12 12M18 6L6 18" />
                  </svg>
                </Button>
              </li>
            ))}
          </ul>
          <div className="space-y-1.5">
            <Label htmlFor={promptId}>Instructions for the AI</Label>
            <textarea
              id={promptId}
              rows={3}
              maxLength={MAX_PROMPT_CHARS}
              value={prompt}
              onChange={(event) => setPrompt(event.target.value)}
              className="w-full rounded-md border border-border bg-background px-3 py-2 text-sm outline-none focus-visible:ring-3 focus-visible:ring-ring"
            />
          </div>
          {failure && <Alert>Something went wrong: {failure}</Alert>}
          {queued && (
            <Alert tone="info">
              Your photos are kept on this device. They will be analysed when Voicemark can be reached, and{' '}
              {target?.later?.promise ?? 'the answer will wait in the Outbox.'}
            </Alert>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => setTab('camera')}>
              Add more photos
            </Button>
            <Button type="button" onClick={confirm} disabled={!canConfirm}>
              {sending ? 'Analysing…' : 'Confirm'}
            </Button>
          </div>
        </TabPanel>
      )}
      {tab === 'response' && result !== null && (
        <TabPanel value="response" ids={ids}>
          <div className="space-y-1.5">
            <Label htmlFor={responseId}>{mode === 'NOTES' ? 'Notes' : 'AI response'}</Label>
            <textarea
              id={responseId}
              rows={8}
              value={result}
              onChange={(event) => setResult(event.target.value)}
              className="w-full rounded-md border border-border bg-background px-3 py-2 text-sm outline-none focus-visible:ring-3 focus-visible:ring-ring"
            />
          </div>
          {failure && <Alert>Something went wrong: {failure}</Alert>}
          <div className="flex flex-wrap gap-2">
            {target && (
              <Button
                type="button"
                onClick={() => {
                  target.use(result)
                  onClose()
                }}
              >
                {target.label}
              </Button>
            )}
            {mode === 'FEEDBACK' && (
              <Button type="button" variant="outline" disabled={sending} onClick={() => void analysePhotos('NOTES')}>
                {sending ? 'Writing notes…' : 'Convert to notes'}
              </Button>
            )}
            <Button type="button" variant="outline" onClick={createMessage}>
              Create message
            </Button>
            <Button type="button" variant="ghost" onClick={backToCamera}>
              Back to camera
            </Button>
          </div>
        </TabPanel>
      )}
    </div>
  )
}

export default function PhotoAnalyserDialog({
  open,
  onOpenChange,
  target,
}: {
  open: boolean
  onOpenChange(open: boolean): void
  target?: AnalyserTarget
}) {
  const word = usePupilWord()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[92dvh] max-w-2xl overflow-y-auto">
        <DialogClose asChild>
          <Button type="button" variant="ghost" size="sm" className="absolute top-3 right-3" aria-label="Close">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </Button>
        </DialogClose>
        <div className="mb-4 space-y-1 pr-10">
          <DialogTitle className="text-lg font-semibold">Analyse photos</DialogTitle>
          <DialogDescription className="text-sm text-muted-foreground">
            Photograph {word.many}' work or choose photos, then get feedback from AI. Photos are shrunk and their location data
            removed before they leave this device.
          </DialogDescription>
        </div>
        {/* Closing unmounts the analyser: the camera stops and photos, prompt and result reset. */}
        {open && <Analyser target={target} onClose={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  )
}
