//! One item of a task's content: its kind, name, state (with the reason and Retry when it
//! failed), an expandable preview of its text, and Remove.

import { useId, useState } from 'react'

import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'

import type { TaskContentItem } from '../../api/content/list-task-files'
import { useRemoveTaskItem } from '../../api/content/remove-task-item'
import { useRetryTaskItem } from '../../api/content/retry-task-item'
import { kindLabel, preview, stateLabel, stateTone } from './item-state'

function KindIcon({ kind }: { kind: string }) {
  const paths: Record<string, string> = {
    VOICE_NOTE: 'M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3Zm-7 9a7 7 0 0 0 14 0M12 19v2',
    RECORDING: 'M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3Zm-7 9a7 7 0 0 0 14 0M12 19v2',
    PHOTO_NOTES: 'M4 7h3l2-3h6l2 3h3v12H4Z M12 17a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z',
    FILE: 'M6 3h8l4 4v14H6Z M14 3v4h4',
  }
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 shrink-0 text-muted-foreground" fill="none" stroke="currentColor" strokeWidth="2">
      <path d={paths[kind] ?? paths.FILE} />
    </svg>
  )
}

export function ContentItem({ taskId, item }: { taskId: string; item: TaskContentItem }) {
  const { toast } = useToast()
  const remove = useRemoveTaskItem()
  const retry = useRetryTaskItem()
  const [expanded, setExpanded] = useState(false)
  const textId = useId()
  const text = item.text ?? ''
  const long = text.length > 160 || text.includes('\n')

  return (
    <li className="space-y-2 rounded-md border border-border p-3" data-testid="task-content-item">
      <div className="flex flex-wrap items-center gap-3">
        <KindIcon kind={item.kind} />
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium">{item.name}</p>
          <p className="text-xs text-muted-foreground">{kindLabel(item.kind)}</p>
        </div>
        <Badge variant={stateTone(item)} aria-label={`State: ${stateLabel(item)}`}>
          {stateLabel(item)}
        </Badge>
        {item.status === 'FAILED' && (
          <Button
            type="button"
            size="sm"
            variant="outline"
            disabled={retry.isPending}
            onClick={() => retry.mutate({ taskId, itemId: item.id }, { onError: (error) => toast(failureToast(error)) })}
          >
            Retry
          </Button>
        )}
        <Button
          type="button"
          size="sm"
          variant="ghost"
          aria-label={`Remove ${item.name}`}
          disabled={remove.isPending}
          onClick={() =>
            remove.mutate(
              { taskId, itemId: item.id },
              {
                onSuccess: () => toast({ title: 'Removed', description: item.name, tone: 'success' }),
                onError: (error) => toast(failureToast(error)),
              },
            )
          }
        >
          Remove
        </Button>
      </div>
      {item.status === 'FAILED' && item.error && (
        <p role="alert" className="text-sm text-destructive">
          {item.error}
        </p>
      )}
      {text && (
        <div className="space-y-1">
          <p id={textId} className="text-sm whitespace-pre-wrap text-muted-foreground">
            {expanded ? text : preview(text)}
          </p>
          {long && (
            <Button type="button" variant="link" size="sm" className="h-auto p-0" aria-expanded={expanded} aria-controls={textId} onClick={() => setExpanded(!expanded)}>
              {expanded ? 'Show less' : 'Show all text'}
            </Button>
          )}
        </div>
      )}
    </li>
  )
}
