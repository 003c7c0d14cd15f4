//! The conversation so far: each question, what the assistant is looking up while a tool
//! runs, the answer as it streams in (Markdown), its drafts, and any error under its question.

import { useEffect, useId, useRef } from 'react'
import Markdown from 'react-markdown'

import { DateText } from '@/components/date-text'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import type { AssistantMessageDraft } from '@/lib/assistant-notes'

import type { Turn } from '../use-assistant-conversation'
import { DraftCard } from './draft-card'

function Answer({ text }: { text: string }) {
  return (
    <div className="space-y-2 text-sm leading-relaxed [&_a]:underline [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6">
      <Markdown
        components={{
          // The answer sits under the conversation's h3.
          h1: ({ children }) => <h4 className="font-semibold">{children}</h4>,
          h2: ({ children }) => <h4 className="font-semibold">{children}</h4>,
          h3: ({ children }) => <h5 className="font-semibold">{children}</h5>,
          h4: ({ children }) => <h5 className="font-semibold">{children}</h5>,
        }}
      >
        {text}
      </Markdown>
    </div>
  )
}

export function Conversation({
  turns,
  busy,
  onRetry,
  onOpenDraft,
  onNewConversation,
}: {
  turns: Turn[]
  busy: boolean
  onRetry: (question: string) => boolean
  onOpenDraft: (draft: AssistantMessageDraft) => void
  onNewConversation: () => void
}) {
  const headingId = useId()
  const last = useRef<HTMLLIElement>(null)
  // A new question scrolls into view; its answer grows below it.
  useEffect(() => {
    last.current?.scrollIntoView?.({ block: 'nearest' })
  }, [turns.length])

  return (
    <div className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-medium">
          Conversation
        </h3>
        <Button type="button" variant="outline" size="sm" onClick={onNewConversation}>
          New conversation
        </Button>
      </div>
      <section aria-labelledby={headingId} aria-live="polite">
        <ol className="space-y-5">
          {turns.map((turn, index) => (
            <li key={turn.key} ref={index === turns.length - 1 ? last : undefined} className="space-y-2">
              <p className="rounded-md bg-muted px-3 py-2 text-sm font-medium whitespace-pre-wrap">
                <span className="sr-only">You asked: </span>
                {turn.question}
              </p>
              {turn.askedAt && (
                <p className="text-xs text-muted-foreground">
                  From your history, asked <DateText date={turn.askedAt} />
                </p>
              )}
              {turn.pending && (
                <p role="status" className="text-sm text-muted-foreground">
                  {turn.status ?? (turn.answer ? '' : 'Thinking…')}
                </p>
              )}
              {turn.answer && <Answer text={turn.answer} />}
              {turn.noAnswer && <p className="text-sm text-muted-foreground">No answer was kept for this question.</p>}
              {turn.drafts.map((draft, at) => (
                <DraftCard key={at} draft={draft} onOpen={() => onOpenDraft(draft)} />
              ))}
              {turn.error && (
                <div className="space-y-2">
                  <Alert>{turn.error}</Alert>
                  <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => onRetry(turn.question)}>
                    Try again
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ol>
      </section>
    </div>
  )
}
