//! /notifications/{id}/{activeTab}: one notification — details, recipients (with delivery
//! state), reach (who it reached, docs/reach.md) and submissions.

import { useId, useState } from 'react'
import { Link, NavLink, useParams } from 'react-router'

import { Cell, DataTable } from '@/components/data-table'
import { DateText } from '@/components/date-text'
import { ReleaseFeedback } from '@/components/release-feedback'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { NotificationDetail } from '@/generated/rpc-types'
import { failureToast } from '@/lib/form-errors'
import { formatDate } from '@/lib/format-date'
import { errorMessage, fieldErrors } from '@/lib/rpc'
import { cn } from '@/lib/utils'
import { usePupilWord } from '@/lib/pupil-word'

import { useChangeRelease } from '../api/change-release'
import { useNotification } from '../api/get-notification'
import { useRecipients } from '../api/list-recipients'
import { useSubmissions } from '../api/list-submissions'
import { ReachTab } from './reach-tab'

export const STATUS_LABELS: Record<NotificationDetail['status'], string> = {
  SCHEDULED: 'Scheduled',
  IN_PROGRESS: 'In progress',
  DELIVERED: 'Delivered',
  ENDED: 'Ended',
}

const STATE_LABELS: Record<string, string> = { SCHEDULED: 'Scheduled', QUEUED: 'Sending', SENT: 'Sent' }
const SENTIMENT_LABELS: Record<string, string> = { POSITIVE: 'Positive', NEUTRAL: 'Neutral', NEGATIVE: 'Negative' }

const TABS = [
  ['details', 'Details'],
  ['recipients', 'Recipients'],
  ['reach', 'Reach'],
  ['submissions', 'Submissions'],
] as const

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
      <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  )
}

const RELEASE_LABELS: Record<NotificationDetail['feedbackRelease'], string> = {
  WHEN_MARKED: 'When marked',
  ON_DATE: 'On a date',
  BY_HAND: 'By hand',
}

function releaseText(n: NotificationDetail): string {
  if (n.feedbackRelease === 'ON_DATE' && n.feedbackReleaseAt) return `On a date: ${formatDate(n.feedbackReleaseAt, true)}`
  return RELEASE_LABELS[n.feedbackRelease]
}

function toLocalInput(date: Date | null): string {
  if (!date) return ''
  const pad = (v: number) => String(v).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

/** A sent assignment's 'Feedback release', changed for the marks still held. */
function ChangeRelease({ n }: { n: NotificationDetail }) {
  const { toast } = useToast()
  const { change, isPending } = useChangeRelease()
  const [release, setRelease] = useState(n.feedbackRelease)
  const [at, setAt] = useState(toLocalInput(n.feedbackReleaseAt))
  const [error, setError] = useState<string | null>(null)
  const errorId = useId()
  const save = async (event: React.FormEvent) => {
    event.preventDefault()
    setError(null)
    const date = at ? new Date(at) : null
    if (release === 'ON_DATE' && (!date || Number.isNaN(date.getTime()))) {
      setError('Choose when the feedback is released.')
      return
    }
    try {
      await change(n, release, release === 'ON_DATE' ? date : null)
      toast({ title: 'Feedback release saved.', tone: 'success' })
    } catch (failure) {
      const fields = fieldErrors(failure)
      const message = fields.feedbackReleaseAt ?? fields.feedbackRelease
      if (message) setError(message)
      else toast(failureToast(failure))
    }
  }
  return (
    <form onSubmit={save} noValidate className="space-y-3">
      <fieldset className="space-y-2" aria-describedby={error ? errorId : undefined}>
        <legend className="text-sm font-medium">Feedback release</legend>
        {(Object.keys(RELEASE_LABELS) as NotificationDetail['feedbackRelease'][]).map((value) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input type="radio" name="feedback-release" value={value} checked={release === value} onChange={() => setRelease(value)} className="size-4 accent-primary" />
            {RELEASE_LABELS[value]}
          </label>
        ))}
      </fieldset>
      {release === 'ON_DATE' && (
        <FormField label="Release date">
          <Input type="datetime-local" value={at} onChange={(event) => setAt(event.target.value)} />
        </FormField>
      )}
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" variant="outline" disabled={isPending}>
        Save feedback release
      </Button>
    </form>
  )
}

/** An assignment's held marks and their release (docs/feedback-release.md). */
function HeldFeedback({ n }: { n: NotificationDetail }) {
  return (
    <section aria-labelledby="held-heading" className="space-y-4 rounded-md border border-border p-4">
      <h2 id="held-heading" className="text-lg font-semibold">
        Feedback release
      </h2>
      {n.held > 0 && (
        <ReleaseFeedback
          notificationId={n.id}
          title={n.title}
          count={n.held}
          release={n.feedbackRelease}
          releaseAt={n.feedbackReleaseAt}
        />
      )}
      {!n.editable && <ChangeRelease key={`${n.feedbackRelease}:${String(n.feedbackReleaseAt)}`} n={n} />}
    </section>
  )
}

function Details({ n }: { n: NotificationDetail }) {
  const word = usePupilWord()
  const audience = [n.sendToPupil && word.Many, n.sendToParent && 'Parents'].filter(Boolean).join(' and ')
  return (
    <div className="space-y-6">
      <dl className="space-y-3">
        <Row label="Status">{STATUS_LABELS[n.status]}</Row>
        <Row label="Type">{n.type === 'ASSIGNMENT' ? 'Assignment' : 'Message'}</Row>
        {n.customTitle && <Row label="Custom title">{n.customTitle}</Row>}
        <Row label="Sent by">{n.senderName}</Row>
        <Row label="Send date">
          {/* Sent at once when saved: no send date was chosen, so the save is the send. */}
          <DateText date={n.sendDate ?? (n.status === 'SCHEDULED' ? null : n.createdAt)} empty="On saving" />
        </Row>
        {n.type === 'ASSIGNMENT' && (
          <Row label="Due date">
            <DateText date={n.submissionDueDate} />
          </Row>
        )}
        <Row label="Send to">{audience}</Row>
        <Row label="Recipients">{n.recipients}</Row>
        {n.type === 'ASSIGNMENT' && <Row label="Feedback release">{releaseText(n)}</Row>}
        <Row label="Submissions">
          {n.submissions} ({n.marked} marked{n.held > 0 ? `, ${n.held} held` : ''})
        </Row>
      </dl>
      {n.type === 'ASSIGNMENT' && (n.held > 0 || !n.editable) && <HeldFeedback n={n} />}
      <section aria-labelledby="body-heading" className="space-y-2">
        <h2 id="body-heading" className="text-lg font-semibold">
          Message
        </h2>
        {/* Sanitised by the server to a small allow-list of tags (docs/notifications.md). */}
        <div
          className="rounded-md border border-border p-4 text-sm [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6 [&_a]:underline"
          dangerouslySetInnerHTML={{ __html: n.body }}
        />
      </section>
    </div>
  )
}

function Recipients({ id }: { id: string }) {
  const recipients = useRecipients(id)
  const word = usePupilWord()
  if (recipients.isError) return <Alert>{errorMessage(recipients.error)}</Alert>
  if (!recipients.data) return <p role="status">Loading…</p>
  if (recipients.data.length === 0) return <p>Nobody yet.</p>
  return (
    <DataTable caption="Recipients" headers={[word.One, 'Delivery', 'Sent']}>
      {recipients.data.map((r) => (
        <tr key={r.studentId}>
          <Cell>
            <Link to={`/students/${r.studentId}`} className="underline-offset-4 hover:underline">
              {r.forename} {r.surname}
            </Link>
          </Cell>
          <Cell>{STATE_LABELS[r.state] ?? r.state}</Cell>
          <Cell>
            <DateText date={r.sentAt} />
          </Cell>
        </tr>
      ))}
    </DataTable>
  )
}

function Submissions({ id }: { id: string }) {
  const submissions = useSubmissions(id)
  const word = usePupilWord()
  if (submissions.isError) return <Alert>{errorMessage(submissions.error)}</Alert>
  if (!submissions.data) return <p role="status">Loading…</p>
  if (submissions.data.length === 0) return <p>No submissions yet.</p>
  return (
    <DataTable caption="Submissions" headers={[word.One, 'Received', 'Marked', 'Sentiment']}>
      {submissions.data.map((s) => (
        <tr key={s.id}>
          <Cell>
            {s.forename} {s.surname}
          </Cell>
          <Cell>
            <DateText date={s.receivedAt} />
          </Cell>
          <Cell>
            <DateText date={s.markedAt} empty="Not yet" />
          </Cell>
          <Cell>{s.sentiment ? (SENTIMENT_LABELS[s.sentiment] ?? s.sentiment) : '—'}</Cell>
        </tr>
      ))}
    </DataTable>
  )
}

export function NotificationPage() {
  const { id = '', activeTab = 'details' } = useParams()
  const notification = useNotification(id)
  const n = notification.data
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">{n?.title ?? 'Notification'}</h1>
          {n && <p className="text-muted-foreground">{STATUS_LABELS[n.status]}</p>}
        </div>
        {n?.editable && (
          <Button asChild variant="outline">
            <Link to={`/notifications/${n.id}/edit`}>Edit</Link>
          </Button>
        )}
      </div>
      {notification.isError && <Alert>{errorMessage(notification.error)}</Alert>}
      <nav aria-label="Notification sections" className="flex gap-1 border-b border-border">
        {TABS.map(([key, label]) => (
          <NavLink
            key={key}
            to={`/notifications/${id}/${key}`}
            aria-current={activeTab === key ? 'page' : undefined}
            className={cn(
              '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
              activeTab === key ? 'border-primary' : 'border-transparent text-muted-foreground hover:text-foreground',
            )}
          >
            {label}
          </NavLink>
        ))}
      </nav>
      {n && activeTab === 'details' && <Details n={n} />}
      {activeTab === 'recipients' && <Recipients id={id} />}
      {n && activeTab === 'reach' && <ReachTab n={n} />}
      {activeTab === 'submissions' && <Submissions id={id} />}
      {!TABS.some(([key]) => key === activeTab) && <p>This section does not exist.</p>}
    </div>
  )
}
