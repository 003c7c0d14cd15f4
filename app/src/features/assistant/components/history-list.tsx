//! The caller's stored questions, newest first: open one (its question and stored answer),
//! ask it anew, or delete it. When the school has turned the history off, a sentence says so.

import type { UseQueryResult } from '@tanstack/react-query'
import { useId } from 'react'

import { DateText } from '@/components/date-text'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'

import type { AssistantHistory, AssistantHistoryItem } from '../api/assistant-history'
import { useDeleteAssistantQuery } from '../api/delete-assistant-query'
import type { StoredQuestion } from '../use-assistant-conversation'

/** Long questions are cut in the list (and in the buttons' names); the full text is one click away. */
const SHOWN_CHARS = 90

export function shortQuestion(question: string, max = SHOWN_CHARS): string {
  const flat = question.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat
}

function HistoryRow({
  item,
  busy,
  onOpen,
  onAskAgain,
}: {
  item: AssistantHistoryItem
  busy: boolean
  onOpen: (stored: StoredQuestion) => void
  onAskAgain: (question: string) => void
}) {
  const { toast } = useToast()
  const remove = useDeleteAssistantQuery()
  const short = shortQuestion(item.question)
  const named = (action: string) => `${action} "${short}"`
  const deleteItem = () =>
    remove.mutate(
      { id: item.id },
      {
        onSuccess: () => toast({ title: 'Question deleted.', tone: 'success' }),
        onError: (error) => toast(failureToast(error)),
      },
    )
  return (
    <li className="space-y-2 border-b border-border pb-3 last:border-b-0">
      <p className="text-sm font-medium" title={short === item.question ? undefined : item.question}>
        {short}
      </p>
      <p className="text-xs text-muted-foreground">
        <DateText date={item.createdAt} />
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          size="sm"
          aria-label={named('Open')}
          disabled={busy}
          onClick={() => onOpen({ question: item.question, answer: item.answer, createdAt: item.createdAt })}
        >
          Open
        </Button>
        <Button type="button" variant="outline" size="sm" aria-label={named('Ask again')} disabled={busy} onClick={() => onAskAgain(item.question)}>
          Ask again
        </Button>
        <Button type="button" variant="ghost" size="sm" aria-label={named('Delete')} disabled={remove.isPending} onClick={deleteItem}>
          Delete
        </Button>
      </div>
    </li>
  )
}

export function HistoryList({
  history,
  busy,
  onOpen,
  onAskAgain,
}: {
  history: UseQueryResult<AssistantHistory>
  busy: boolean
  onOpen: (stored: StoredQuestion) => void
  onAskAgain: (question: string) => void
}) {
  const headingId = useId()
  const data = history.data
  return (
    <section aria-labelledby={headingId} className="space-y-3 border-t border-border pt-4">
      <h3 id={headingId} className="text-sm font-medium">
        History
      </h3>
      {history.isPending && <p className="text-sm text-muted-foreground">Loading…</p>}
      {history.isError && <Alert>{errorMessage(history.error)}</Alert>}
      {data && !data.enabled && (
        <p className="text-sm text-muted-foreground">Your school has turned off the assistant&apos;s history, so questions are not kept.</p>
      )}
      {data?.enabled && data.items.length === 0 && <p className="text-sm text-muted-foreground">No questions yet.</p>}
      {data?.enabled && data.items.length > 0 && (
        <ul aria-labelledby={headingId} className="space-y-3">
          {data.items.map((item) => (
            <HistoryRow key={item.id} item={item} busy={busy} onOpen={onOpen} onAskAgain={onAskAgain} />
          ))}
        </ul>
      )}
    </section>
  )
}
