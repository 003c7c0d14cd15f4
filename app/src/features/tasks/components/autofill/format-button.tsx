//! "AI Formatting": the chat model tidies the answer the user wrote (grammar, British
//! English, short paragraphs or bullets; meaning and facts kept). The result replaces the
//! text through `onFormatted`, with Undo to put the user's own words back. Nothing is saved
//! until the form is. Without a chat model the button's place says so.

import { useState } from 'react'

import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/rpc'

import { useFeatures } from '@/lib/features'
import { useFormatAnswer } from '../../api/ai-format-answer'

export function FormatAnswerButton({
  taskId,
  questionId,
  text,
  onFormatted,
}: {
  taskId: string
  questionId: string
  text: string
  onFormatted(text: string): void
}) {
  const features = useFeatures()
  const format = useFormatAnswer()
  // The user's text before the last formatting, while it can be restored.
  const [previous, setPrevious] = useState<{ before: string; after: string } | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  // The Autofill panel says once that AI writing is off; here the button is only disabled.
  const off = features.data?.chat === false

  // Undo is offered only while the text is still what the AI returned.
  const canUndo = previous !== null && previous.after === text

  const run = () => {
    setProblem(null)
    const before = text
    format.mutate(
      { taskId, questionId, text },
      {
        onSuccess: ({ text: tidied }) => {
          setPrevious({ before, after: tidied })
          onFormatted(tidied)
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    )
  }

  const undo = () => {
    if (!previous) return
    onFormatted(previous.before)
    setPrevious(null)
  }

  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={run}
          disabled={off || format.isPending || text.trim() === ''}
          aria-describedby={problem ? `${questionId}-format-problem` : undefined}
        >
          {format.isPending ? 'Formatting…' : 'AI Formatting'}
        </Button>
        {canUndo && (
          <Button type="button" variant="ghost" size="sm" onClick={undo}>
            Undo formatting
          </Button>
        )}
      </div>
      {problem && (
        <p id={`${questionId}-format-problem`} role="alert" className="text-sm text-destructive">
          AI Formatting did not work: {problem}
        </p>
      )}
    </div>
  )
}
