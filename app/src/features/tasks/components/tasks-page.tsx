//! /leaders and /leaders/tasks: the user's tasks and those shared with them, 50 at a time
//! with "Show more tasks", with search, a tag filter (every tag of their tasks, which each
//! page carries) and a Draft/Submitted filter; "New task" starts one.

import { ClipboardList } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'

import { Cell, DataTable } from '@/components/data-table'
import { DateText } from '@/components/date-text'
import { EmptyState } from '@/components/empty-state'
import { PageTitle } from '@/components/page-title'
import { ShowMore } from '@/components/show-more'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { FIRST_FRAMES } from '@/lib/first-frame'
import { errorMessage } from '@/lib/rpc'

import { useTasks } from '../api/list-tasks'

type StatusFilter = '' | 'DRAFT' | 'SUBMITTED'

export function TasksPage() {
  const [search, setSearch] = useState('')
  const [tag, setTag] = useState('')
  const [status, setStatus] = useState<StatusFilter>('')
  const tasks = useTasks({ search: search.trim() || null, tag: tag || null, status: status || null })
  const shown = tasks.data?.pages.flatMap((page) => page.tasks)
  const tags = tasks.data?.pages[0]?.allTags ?? []
  const filtered = search.trim() !== '' || tag !== '' || status !== ''

  return (
    <div className="space-y-6">
      <PageTitle {...FIRST_FRAMES['/leaders/tasks']}>
        <Button asChild>
          <Link to="/leaders/tasks/create" data-tour="new-task">
            New task
          </Link>
        </Button>
      </PageTitle>
      <div className="grid gap-4 sm:grid-cols-3">
        <FormField label="Search tasks">
          <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </FormField>
        <FormField label="Tag">
          <Select value={tag} onChange={(e) => setTag(e.target.value)}>
            <option value="">All tags</option>
            {tags.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Status">
          <Select value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
            <option value="">All</option>
            <option value="DRAFT">Draft</option>
            <option value="SUBMITTED">Submitted</option>
          </Select>
        </FormField>
      </div>
      {tasks.isError ? (
        <Alert>{errorMessage(tasks.error)}</Alert>
      ) : !tasks.data || !shown ? (
        <p role="status">Loading your tasks…</p>
      ) : shown.length === 0 ? (
        <EmptyState
          icon={ClipboardList}
          title={filtered ? 'No tasks match these filters' : 'No tasks yet'}
          action={
            filtered ? (
              <Button
                variant="outline"
                onClick={() => {
                  setSearch('')
                  setTag('')
                  setStatus('')
                }}
              >
                Clear the filters
              </Button>
            ) : (
              <Button asChild>
                <Link to="/leaders/tasks/create">Start your first task</Link>
              </Button>
            )
          }
        >
          {filtered
            ? 'None of your tasks has this title, tag and status together.'
            : 'Your tasks, and those colleagues share with you, appear here once you start one.'}
        </EmptyState>
      ) : (
        <>
          <DataTable caption="Tasks" headers={['Title', 'Template', 'Status', 'Updated', 'Shared']}>
            {shown.map((task) => (
              <tr key={task.id}>
                <Cell>
                  <Link to={`/leaders/tasks/${task.id}/edit`} className="font-medium text-primary underline-offset-4 hover:underline">
                    {task.title}
                  </Link>
                  {task.tags.length > 0 && (
                    <div className="mt-1 flex flex-wrap gap-1">
                      {task.tags.map((t) => (
                        <Badge key={t} variant="outline">
                          {t}
                        </Badge>
                      ))}
                    </div>
                  )}
                </Cell>
                <Cell>{task.templateTitle}</Cell>
                <Cell>
                  {task.draft ? <Badge variant="warning">Draft</Badge> : <Badge variant="success">Submitted</Badge>}
                </Cell>
                <Cell>
                  <DateText date={task.updatedAt} withTime={false} />
                </Cell>
                <Cell>{task.shared ? <Badge variant="secondary">Shared by {task.ownerName}</Badge> : null}</Cell>
              </tr>
            ))}
          </DataTable>
          {/* Only once there is more than a page, so a short list looks as it always has. */}
          {(tasks.hasNextPage || tasks.data.pages.length > 1) && (
            <ShowMore
              shown={shown.length}
              total={tasks.data.pages[0]?.total ?? 0}
              noun="tasks"
              more={tasks.hasNextPage}
              loading={tasks.isFetchingNextPage}
              onMore={() => void tasks.fetchNextPage()}
            />
          )}
        </>
      )}
    </div>
  )
}
