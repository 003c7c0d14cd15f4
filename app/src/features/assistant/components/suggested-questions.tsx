//! Examples of what to ask, shown before the first question; each is asked at a click.

import { useId } from 'react'

import { Button } from '@/components/ui/button'

export const SUGGESTED_QUESTIONS = [
  'Who has not handed in the latest assignment?',
  'Which submissions are still unmarked?',
  'Summarise the feedback I gave this week.',
  'Which parents have not received my last message?',
] as const

export function SuggestedQuestions({ disabled, onAsk }: { disabled: boolean; onAsk: (question: string) => boolean }) {
  const headingId = useId()
  return (
    <section aria-labelledby={headingId} className="space-y-2">
      <h3 id={headingId} className="text-sm font-medium">
        Try asking
      </h3>
      <ul className="grid gap-2">
        {SUGGESTED_QUESTIONS.map((question) => (
          <li key={question}>
            <Button
              type="button"
              variant="outline"
              disabled={disabled}
              className="h-auto w-full justify-start py-2 text-left whitespace-normal"
              onClick={() => onAsk(question)}
            >
              {question}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  )
}
