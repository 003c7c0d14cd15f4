//! The question: typed (Enter asks, Shift+Enter starts a new line) or dictated through the
//! live dictation drawer ('Ask by voice').

import { useId, useState, type FormEvent, type KeyboardEvent } from 'react'

import { Button } from '@/components/ui/button'
import { Label, Textarea } from '@/components/ui/input'

import { MAX_QUESTION_CHARS } from '../api/ask-assistant'

export function QuestionForm({
  busy,
  onAsk,
  onAskByVoice,
}: {
  /** An answer is still coming: nothing new can be asked until it ends. */
  busy: boolean
  /** Asks the question; false when it was not asked. */
  onAsk: (question: string) => boolean
  onAskByVoice: () => void
}) {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const id = useId()
  const hintId = `${id}-hint`
  const errorId = `${id}-error`

  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    if (busy) return
    if (!text.trim()) {
      setError('Type a question first, or ask by voice.')
      return
    }
    if (onAsk(text)) {
      setText('')
      setError(null)
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter asks; Shift+Enter is a new line; an IME still composing keeps its Enter.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    submit()
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <Label htmlFor={id}>Your question</Label>
      <Textarea
        id={id}
        rows={3}
        maxLength={MAX_QUESTION_CHARS}
        value={text}
        onChange={(event) => {
          setText(event.target.value)
          if (error) setError(null)
        }}
        onKeyDown={onKeyDown}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        className="min-h-20"
      />
      <p id={hintId} className="text-xs text-muted-foreground">
        Up to {MAX_QUESTION_CHARS} characters. Enter asks; Shift+Enter starts a new line.
      </p>
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy}>
          Ask
        </Button>
        <Button type="button" variant="outline" disabled={busy} onClick={onAskByVoice}>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
            <rect x="9" y="3" width="6" height="11" rx="3" />
            <path d="M5 11a7 7 0 0 0 14 0M12 18v3" />
          </svg>
          Ask by voice
        </Button>
      </div>
    </form>
  )
}
