//! /notifications: Activity — the notifications the caller may see (teachers: their own;
//! admins: the whole school's), newest first, with status and counts; search by title and
//! 20 a page.

import { useState } from 'react'
import { Link } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import type { ActivityItem } from '@/generated/rpc-types'
import { errorMessage, useRpcQuery } from '@/lib/rpc'

import { useFormattedDate } from '../api/use-format-date'

const STATUS: Record<ActivityItem['status'], [string, string]> = {
  SCHEDULED: ['Scheduled', 'bg-blue-50 text-blue-800 border-blue-200'],
  IN_PROGRESS: ['In progress', 'bg-amber-50 text-amber-900 border-amber-200'],
  DELIVERED: ['Delivered', 'bg-green-50 text-green-800 border-green-200'],
  ENDED: ['Ended', 'bg-muted text-foreground border-border'],
}

function When({ date }: { date: Date | null }) {
  const text = useFormattedDate(date)
  return date ? <time dateTime={date.toISOString()}>{text}</time> : <span>—</span>
}

export function ActivityPage() {
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const list = useRpcQuery(
    'notification.list',
    { search: search.trim() || null, page, pageSize: null },
    { placeholderData: (previous) => previous },
  )
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.pageSize)) : 1

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight">Activity</h1>
        <div className="flex gap-2">
          <Button asChild variant="outline">
            <Link to="/notifications/create?type=GENERAL">New message</Link>
          </Button>
          <Button asChild>
            <Link to="/notifications/create?type=ASSIGNMENT">New assignment</Link>
          </Button>
        </div>
      </div>
      <div className="w-80 space-y-1.5">
        <label htmlFor="activity-search" className="text-sm font-medium">
          Search by title
        </label>
        <Input
          id="activity-search"
          type="search"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value)
            setPage(1)
          }}
        />
      </div>
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      {list.data && list.data.total === 0 && <p>No notifications{search.trim() ? ' match your search' : ' yet'}.</p>}
      {list.data && list.data.items.length > 0 && (
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Notifications</caption>
            <thead className="bg-muted">
              <tr>
                {['Title', 'Type', 'Status', 'Send date', 'Due date', 'Recipients', 'Submissions', 'Marked'].map((h) => (
                  <th key={h} scope="col" className="px-3 py-2 font-medium">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {list.data.items.map((item) => {
                const [label, tone] = STATUS[item.status]
                return (
                  <tr key={item.id}>
                    <td className="px-3 py-2">
                      <Link to={`/notifications/${item.id}/details`} className="font-medium underline-offset-4 hover:underline">
                        {item.title}
                      </Link>
                      <div className="text-xs text-muted-foreground">{item.senderName}</div>
                    </td>
                    <td className="px-3 py-2">{item.type === 'ASSIGNMENT' ? 'Assignment' : 'Message'}</td>
                    <td className="px-3 py-2">
                      <span className={`rounded-full border px-2 py-0.5 text-xs font-medium ${tone}`}>{label}</span>
                    </td>
                    <td className="px-3 py-2">
                      <When date={item.sendDate ?? item.createdAt} />
                    </td>
                    <td className="px-3 py-2">
                      <When date={item.submissionDueDate} />
                    </td>
                    <td className="px-3 py-2">{item.recipients}</td>
                    <td className="px-3 py-2">{item.type === 'ASSIGNMENT' ? item.submissions : '—'}</td>
                    <td className="px-3 py-2">{item.type === 'ASSIGNMENT' ? item.marked : '—'}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 && (
        <div className="flex items-center gap-3">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span className="text-sm">
            Page {page} of {pages}
          </span>
          <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </div>
      )}
    </div>
  )
}
