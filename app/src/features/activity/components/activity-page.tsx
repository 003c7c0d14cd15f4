//! /notifications: Activity — the notifications the caller may see (teachers: their own;
//! admins: the whole school's), newest first, with status and counts; search by title and
//! 20 a page.

import { ClipboardList, Inbox, Megaphone } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'

import { CursorPager, useCursorPages } from '@/components/cursor-pager'
import { Cell, DataTable } from '@/components/data-table'
import { DateText } from '@/components/date-text'
import { EmptyState } from '@/components/empty-state'
import { PageTitle } from '@/components/page-title'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import type { ActivityItem } from '@/generated/rpc-types'
import { FIRST_FRAMES } from '@/lib/first-frame'
import { errorMessage } from '@/lib/rpc'

import { useActivity } from '../api/list-notifications'

const STATUS: Record<ActivityItem['status'], [string, string]> = {
  SCHEDULED: ['Scheduled', 'bg-blue-50 text-blue-800 border-blue-200'],
  IN_PROGRESS: ['In progress', 'bg-amber-50 text-amber-900 border-amber-200'],
  DELIVERED: ['Delivered', 'bg-green-50 text-green-800 border-green-200'],
  ENDED: ['Ended', 'bg-muted text-foreground border-border'],
}

const HEADERS = ['Title', 'Type', 'Status', 'Send date', 'Due date', 'Recipients', 'Submissions', 'Marked']

export function ActivityPage() {
  const [search, setSearch] = useState('')
  const pages = useCursorPages()
  const list = useActivity(search, pages.cursor)
  const searchFor = (value: string) => {
    setSearch(value)
    pages.reset()
  }

  return (
    <div className="space-y-6">
      <PageTitle {...FIRST_FRAMES['/notifications']}>
        <Button asChild variant="outline">
          <Link to="/notifications/create?type=GENERAL">
            <Megaphone aria-hidden="true" className="size-4" />
            New message
          </Link>
        </Button>
        <Button asChild>
          <Link to="/notifications/create?type=ASSIGNMENT">
            <ClipboardList aria-hidden="true" className="size-4" />
            New assignment
          </Link>
        </Button>
      </PageTitle>
      <div className="w-full max-w-80 space-y-1.5">
        <label htmlFor="activity-search" className="text-sm font-medium">
          Search by title
        </label>
        <Input
          id="activity-search"
          type="search"
          value={search}
          onChange={(event) => searchFor(event.target.value)}
        />
      </div>
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      {list.data && list.data.total === 0 &&
        (search.trim() ? (
          <EmptyState
            icon={Inbox}
            title="No notifications match your search"
            action={
              <Button variant="outline" onClick={() => searchFor('')}>
                Clear the search
              </Button>
            }
          >
            No message or assignment you can see has these words in its title.
          </EmptyState>
        ) : (
          <EmptyState
            icon={Inbox}
            title="No notifications yet"
            action={
              <Button asChild>
                <Link to="/notifications/create?type=ASSIGNMENT">Set your first assignment</Link>
              </Button>
            }
          >
            The messages and assignments sent to pupils and parents are listed here with their progress.
          </EmptyState>
        ))}
      {list.data && list.data.items.length > 0 && (
        <DataTable caption="Notifications" headers={HEADERS}>
          {list.data.items.map((item) => {
            const [label, tone] = STATUS[item.status]
            return (
              <tr key={item.id}>
                <Cell>
                  <Link to={`/notifications/${item.id}/details`} className="font-medium underline-offset-4 hover:underline">
                    {item.title}
                  </Link>
                  <div className="text-xs text-muted-foreground">{item.senderName}</div>
                </Cell>
                <Cell>{item.type === 'ASSIGNMENT' ? 'Assignment' : 'Message'}</Cell>
                <Cell>
                  <span className={`rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap ${tone}`}>{label}</span>
                </Cell>
                <Cell className="whitespace-nowrap">
                  <DateText date={item.sendDate ?? item.createdAt} />
                </Cell>
                <Cell className="whitespace-nowrap">
                  <DateText date={item.submissionDueDate} />
                </Cell>
                <Cell>{item.recipients}</Cell>
                <Cell>{item.type === 'ASSIGNMENT' ? item.submissions : '—'}</Cell>
                <Cell>{item.type === 'ASSIGNMENT' ? item.marked : '—'}</Cell>
              </tr>
            )
          })}
        </DataTable>
      )}
      {list.data && (
        <CursorPager
          pages={pages}
          total={list.data.total}
          pageSize={list.data.pageSize}
          nextCursor={list.isPlaceholderData ? null : list.data.nextCursor}
        />
      )}
    </div>
  )
}
