//! The Reach tab of a notification (docs/reach.md): each pupil's and parent's delivery with
//! its state, a count per state that filters the list (the server sends a page of 200),
//! 'Not reached' (not sent, bounced, or
//! not opened after the days chosen) and the office's downloads of that list.

import { useId, useState } from 'react'
import { Link } from 'react-router'

import { Cell, DataTable } from '@/components/data-table'
import { DateText } from '@/components/date-text'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import type { NotificationDetail, ReachEntry } from '@/generated/rpc-types'
import { errorMessage } from '@/lib/rpc'
import { cn } from '@/lib/utils'
import { usePupilWord } from '@/lib/pupil-word'

import { notReachedUrl, useReach } from '../api/reach'

const NOT_REACHED = 'NOT_REACHED'
const ALL = 'ALL'

function when(e: ReachEntry) {
  if (e.openedAt) return <DateText date={e.openedAt} />
  if (e.sentAt) return <DateText date={e.sentAt} />
  return <span>—</span>
}

export function ReachTab({ n }: { n: NotificationDetail }) {
  const word = usePupilWord()
  const daysId = useId()
  const [days, setDays] = useState(3)
  const [typed, setTyped] = useState('3')
  const [filter, setFilter] = useState<string>(ALL)
  const [page, setPage] = useState(1)
  const reach = useReach(n.id, days, filter, page)

  if (reach.isError) return <Alert>{errorMessage(reach.error)}</Alert>
  if (!reach.data) return <p role="status">Loading…</p>
  const data = reach.data
  if (!data.recorded) {
    return (
      <p>
        {n.status === 'SCHEDULED'
          ? 'This message has not been sent yet. Who it reached shows here once it is.'
          : 'Who this message reached was not recorded: it was sent before Voicemark kept track of it.'}
      </p>
    )
  }

  const shown = data.entries
  const pages = Math.max(1, Math.ceil(Number(data.shown) / Number(data.pageSize)))
  const choices = [
    { key: ALL, label: 'Everyone', count: Number(data.total) },
    ...data.counts.map((c) => ({ key: c.state, label: c.label, count: Number(c.count) })),
    { key: NOT_REACHED, label: 'Not reached', count: Number(data.notReached) },
  ]
  const chosen = choices.find((c) => c.key === filter)

  const changeDays = (value: string) => {
    setTyped(value)
    const number = Number(value)
    if (Number.isInteger(number) && number >= 1 && number <= 60) {
      setDays(number)
      setPage(1)
    }
  }

  return (
    <div className="space-y-4">
      <p>
        {Number(data.notReached) === 0
          ? `Everyone this message was for has been reached so far (${data.total} in all).`
          : `${data.notReached} of ${data.total} not reached: not sent, bounced, or not opened ${days} ${days === 1 ? 'day' : 'days'} after sending.`}
      </p>
      <div role="group" aria-label="Show" className="flex flex-wrap gap-2">
        {choices.map((c) => (
          <Button
            key={c.key}
            type="button"
            size="sm"
            variant={filter === c.key ? 'default' : 'outline'}
            aria-pressed={filter === c.key}
            onClick={() => {
              setFilter(c.key)
              setPage(1)
            }}
          >
            {c.label} ({c.count})
          </Button>
        ))}
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <div className="grid gap-1">
          <label htmlFor={daysId} className="text-sm font-medium">
            Not opened after (days)
          </label>
          <Input
            id={daysId}
            type="number"
            inputMode="numeric"
            min={1}
            max={60}
            value={typed}
            onChange={(event) => changeDays(event.target.value)}
            aria-invalid={typed !== String(days) || undefined}
            className="w-24"
          />
        </div>
        <Button asChild variant="outline">
          <a href={notReachedUrl(n.id, days, 'csv')} download>
            Download CSV
          </a>
        </Button>
        <Button asChild variant="outline">
          <a href={notReachedUrl(n.id, days, 'pdf')} download>
            Print paper list (PDF)
          </a>
        </Button>
      </div>
      {typed !== String(days) && <p className="text-sm text-destructive">Enter a number of days from 1 to 60.</p>}
      {shown.length === 0 ? (
        <p>Nobody here.</p>
      ) : (
        <DataTable caption={`Reach: ${chosen?.label ?? 'Everyone'}`} headers={[word.One, 'Form group', 'Who', 'Address', 'State', 'When']}>
          {shown.map((e) => (
            <tr key={e.id}>
              <Cell>
                <Link to={`/students/${e.studentId}`} className="underline-offset-4 hover:underline">
                  {e.forename} {e.surname}
                </Link>
              </Cell>
              <Cell>{e.formGroup ?? '—'}</Cell>
              <Cell>{e.audience === 'parent' ? 'Parent' : word.One}</Cell>
              <Cell className="break-all">{e.address ?? 'No address'}</Cell>
              <Cell>
                <span className={cn(e.notReached && 'font-medium text-destructive')}>
                  {data.counts.find((c) => c.state === e.state)?.label ?? e.state}
                </span>
                {e.reason && <span className="block text-xs text-muted-foreground">{e.reason}</span>}
              </Cell>
              <Cell>{when(e)}</Cell>
            </tr>
          ))}
        </DataTable>
      )}
      {pages > 1 && (
        <nav aria-label="Pages" className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="outline" size="sm" disabled={data.page <= 1} onClick={() => setPage(Number(data.page) - 1)}>
            Previous
          </Button>
          <span className="text-sm">
            Page {data.page} of {pages}
          </span>
          <Button type="button" variant="outline" size="sm" disabled={data.page >= pages} onClick={() => setPage(Number(data.page) + 1)}>
            Next
          </Button>
        </nav>
      )}
    </div>
  )
}
