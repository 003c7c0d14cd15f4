//! "Autofill Response": one click sends the template's questions and the task's content
//! (transcripts, photo notes, extracted text; never the photos or audio themselves) to the
//! server's chat model and fills each answer live as it is written (`onAnswer` on every
//! piece). Nothing is saved: the user reviews the answers and saves the form. Progress,
//! Stop, and errors in plain words; without a chat model the panel says so instead.

import { useEffect, useRef, useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Progress } from '@/components/ui/progress'
import { errorMessage } from '@/lib/rpc'

import { streamAutofill } from '../../api/ai-autofill'
import { FeatureOff } from '@/components/feature-off'
import { useFeatures } from '@/lib/features'

type Status =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'done'; filled: number; truncated: boolean }
  | { kind: 'stopped' }
  | { kind: 'error'; message: string }

export interface AutofillQuestion {
  id: string
  text: string
}

export function AutofillPanel({
  taskId,
  questions,
  onAnswer,
}: {
  taskId: string
  questions: AutofillQuestion[]
  /** Each answer as it grows (`complete` once the model has finished it). */
  onAnswer(questionId: string, text: string, complete: boolean): void
}) {
  const features = useFeatures()
  const [status, setStatus] = useState<Status>({ kind: 'idle' })
  const [completed, setCompleted] = useState<string[]>([])
  const [current, setCurrent] = useState<string | null>(null)
  const abort = useRef<AbortController | null>(null)
  // The latest callback without restarting a run when the parent re-renders.
  const answer = useRef(onAnswer)
  useEffect(() => {
    answer.current = onAnswer
  }, [onAnswer])
  useEffect(() => () => abort.current?.abort(), [])

  // Said once, here; the AI Formatting buttons below are simply disabled.
  if (features.data?.chat === false)
    return (
      <div className="space-y-2">
        <Button type="button" data-tour="autofill" disabled>
          Autofill Response
        </Button>
        <FeatureOff capability="autofill" />
      </div>
    )

  const running = status.kind === 'running'
  const total = questions.length
  const position = current ? questions.findIndex((q) => q.id === current) + 1 : 0

  const start = () => {
    const controller = new AbortController()
    abort.current = controller
    setStatus({ kind: 'running' })
    setCompleted([])
    setCurrent(null)
    streamAutofill(
      taskId,
      (event) => {
        if (event.type === 'answer') {
          answer.current(event.questionId, event.text, event.complete)
          setCurrent(event.questionId)
          if (event.complete)
            setCompleted((done) => (done.includes(event.questionId) ? done : [...done, event.questionId]))
        } else if (event.type === 'done') {
          const filled = Object.values(event.answers).filter((text) => text.trim() !== '').length
          setStatus({ kind: 'done', filled, truncated: event.truncated })
        } else {
          setStatus({ kind: 'error', message: event.message })
        }
      },
      controller.signal,
    )
      .catch((error: unknown) => {
        if (controller.signal.aborted) setStatus({ kind: 'stopped' })
        else setStatus({ kind: 'error', message: errorMessage(error) })
      })
      .finally(() => {
        if (abort.current === controller) abort.current = null
        setCurrent(null)
      })
  }

  const stop = () => abort.current?.abort()

  return (
    <div className="space-y-3" aria-busy={running}>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" data-tour="autofill" onClick={start} disabled={running || total === 0}>
          Autofill Response
        </Button>
        {running && (
          <Button type="button" variant="outline" onClick={stop}>
            Stop
          </Button>
        )}
        <p className="text-sm text-muted-foreground">
          The AI answers from this task&apos;s notes, transcripts and documents. Review every answer before saving.
        </p>
      </div>
      {running && (
        <div className="space-y-1">
          <Progress value={total ? (completed.length / total) * 100 : 0} label="Autofill progress" />
          <p role="status" className="text-sm text-muted-foreground">
            {position > 0 ? `Writing answer ${position} of ${total}…` : 'Reading the task’s content…'}
          </p>
        </div>
      )}
      {status.kind === 'done' && (
        <Alert tone="success">
          The AI filled {status.filled} of {total} answer{total === 1 ? '' : 's'}
          {status.filled < total ? '; the others were left empty because the content does not cover them' : ''}.
          Review the answers, then save.
          {status.truncated && ' Some long content was shortened to fit, so check the answers against it.'}
        </Alert>
      )}
      {status.kind === 'stopped' && (
        <Alert tone="info">Autofill stopped. The answers written so far are in the form; nothing has been saved.</Alert>
      )}
      {status.kind === 'error' && <Alert>Autofill did not finish: {status.message}</Alert>}
    </div>
  )
}
