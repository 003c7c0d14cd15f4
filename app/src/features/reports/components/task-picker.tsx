//! The report form's task picker: search, From/To dates and a tag narrow the list (on the
//! server, from the first page again); each task is a checkbox (title, tags, date). 50 come
//! at first, "Show more tasks" loads 50 more. The choice survives filtering and paging: tasks
//! chosen but filtered out or not loaded stay chosen and are counted.

import { useState } from 'react'

import { ShowMore } from '@/components/show-more'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { formatDate, isoDate } from '@/lib/format-date'
import { errorMessage } from '@/lib/rpc'

import { onceEach, useMoreSources, useReportSources, type SourceFilters } from '../api/report-sources'
import { MAX_TASKS } from '../api/save-report'

export function TaskPicker({
  selected,
  onChange,
  error,
}: {
  selected: string[]
  onChange: (ids: string[]) => void
  error?: string
}) {
  const [filters, setFilters] = useState<SourceFilters>({})
  const sources = useReportSources(filters)
  const more = useMoreSources(filters, 'TASKS')
  const tasks = onceEach([...(sources.data?.tasks ?? []), ...more.pages.flatMap((page) => page.tasks)])
  // Until the new filters' first page is in, the old one shows, and its cursor is not theirs.
  const tasksNext = sources.isPlaceholderData ? null : (sources.data?.tasksNext ?? null)
  const total = Math.max(tasks.length, sources.data?.tasksTotal ?? 0)
  const set = (patch: SourceFilters) => setFilters((f) => ({ ...f, ...patch }))
  const toggle = (id: string, on: boolean) =>
    onChange(on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id))
  const visibleIds = tasks.map((t) => t.id)
  const allVisibleChosen = visibleIds.length > 0 && visibleIds.every((id) => selected.includes(id))

  return (
    <fieldset className="space-y-3" aria-describedby={error ? 'report-task-error' : undefined}>
      <legend className="text-base font-semibold">Tasks</legend>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <FormField label="Search tasks">
          <Input type="search" value={filters.search ?? ''} onChange={(e) => set({ search: e.target.value })} />
        </FormField>
        <FormField label="From">
          <Input type="date" value={filters.from ?? ''} onChange={(e) => set({ from: e.target.value || undefined })} />
        </FormField>
        <FormField label="To">
          <Input type="date" value={filters.to ?? ''} onChange={(e) => set({ to: e.target.value || undefined })} />
        </FormField>
        <FormField label="Tag">
          <Select value={filters.tag ?? ''} onChange={(e) => set({ tag: e.target.value || undefined })}>
            <option value="">All tags</option>
            {(sources.data?.tags ?? []).map((tag) => (
              <option key={tag} value={tag}>
                {tag}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      {sources.isError && <Alert>The tasks could not be loaded: {errorMessage(sources.error)}</Alert>}
      {sources.isPending && <p role="status">Loading tasks…</p>}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {selected.length} of at most {MAX_TASKS} tasks chosen
        </p>
        <div className="flex gap-2">
          {tasks.length > 0 && (
            <Button
              type="button"
              size="sm"
              variant="outline"
              onClick={() =>
                onChange(
                  allVisibleChosen
                    ? selected.filter((id) => !visibleIds.includes(id))
                    : [...selected, ...visibleIds.filter((id) => !selected.includes(id))].slice(0, MAX_TASKS),
                )
              }
            >
              {allVisibleChosen ? 'Clear the listed tasks' : 'Choose all listed'}
            </Button>
          )}
          {selected.length > 0 && (
            <Button type="button" size="sm" variant="outline" onClick={() => onChange([])}>
              Clear choice
            </Button>
          )}
        </div>
      </div>
      {sources.data && tasks.length === 0 && (
        <p className="rounded-md border border-border p-4 text-sm text-muted-foreground">No tasks match these filters.</p>
      )}
      {tasks.length > 0 && (
        <ul className="max-h-80 space-y-1 overflow-y-auto rounded-md border border-border p-2" aria-label="Tasks to report on">
          {tasks.map((task) => {
            const id = `report-task-${task.id}`
            return (
              <li key={task.id} className="flex items-start gap-3 rounded-md p-2 hover:bg-muted">
                <input
                  id={id}
                  type="checkbox"
                  className="mt-1 size-4 focus-visible:ring-3 focus-visible:ring-ring"
                  checked={selected.includes(task.id)}
                  onChange={(e) => toggle(task.id, e.target.checked)}
                />
                <label htmlFor={id} className="min-w-0 flex-1 cursor-pointer">
                  <span className="font-medium">{task.title}</span>
                  <span className="mt-1 flex flex-wrap items-center gap-1 text-xs text-muted-foreground">
                    <time dateTime={isoDate(task.date)}>{formatDate(task.date)}</time>
                    {task.draft && <Badge variant="warning">Draft</Badge>}
                    {task.tags.map((tag) => (
                      <Badge key={tag} variant="outline">
                        {tag}
                      </Badge>
                    ))}
                  </span>
                </label>
              </li>
            )
          })}
        </ul>
      )}
      {(tasksNext !== null || more.pages.length > 0) && (
        <ShowMore
          shown={tasks.length}
          total={total}
          noun="tasks"
          more={more.hasMore(tasksNext)}
          loading={more.loading}
          onMore={() => more.more(tasksNext)}
        />
      )}
      {more.error && <Alert>More tasks could not be loaded: {errorMessage(more.error)}</Alert>}
      {error && (
        <p id="report-task-error" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  )
}
