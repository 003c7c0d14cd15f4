//! The Dashboard's "today": work to mark (with the oldest few), assignments due in the next
//! 7 days, and notifications scheduled to send — each linking on.

import { Link } from 'react-router'

import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { formatDate, isoDate } from '@/lib/format-date'
import { errorMessage, useRpcQuery } from '@/lib/rpc'

// Underlined: inside a sentence a link must not rely on colour alone (axe link-in-text-block).
const linkClass = 'text-primary underline underline-offset-4'

export function DashboardSummary() {
  const summary = useRpcQuery('dashboard.summary')
  if (summary.isError) return <Alert>Your dashboard could not be loaded: {errorMessage(summary.error)}</Alert>
  if (summary.isPending) return <p role="status">Loading your day…</p>
  const { toMark, oldestToMark, dueSoon, scheduled } = summary.data
  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <Section className="space-y-3" title="To mark">
        <p>
          <span className="text-3xl font-bold">{toMark}</span>{' '}
          {toMark === 1 ? 'submission waits' : 'submissions wait'} for feedback.
        </p>
        {oldestToMark.length > 0 && (
          <ul className="space-y-1 text-sm">
            {oldestToMark.map((item) => (
              <li key={item.submissionId}>
                <Link to={`/students/${item.studentId}`} className={linkClass}>
                  {item.studentName}
                </Link>{' '}
                <span className="text-muted-foreground">
                  {item.notificationTitle}, <time dateTime={isoDate(item.receivedAt)}>{formatDate(item.receivedAt)}</time>
                </span>
              </li>
            ))}
          </ul>
        )}
        <Link to="/feedback" className={linkClass}>
          Open the Feedback Hub
        </Link>
      </Section>
      <Section className="space-y-3" title="Due in the next 7 days">
        {dueSoon.length === 0 ? (
          <p className="text-sm text-muted-foreground">No assignments are due this week.</p>
        ) : (
          <ul className="space-y-2 text-sm">
            {dueSoon.map((item) => (
              <li key={item.notificationId}>
                <Link to={`/notifications/${item.notificationId}/submissions`} className={linkClass}>
                  {item.title}
                </Link>
                <span className="block text-muted-foreground">
                  Due {formatDate(item.submissionDueDate, true)}; {item.received} of {item.expected} handed in
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section className="space-y-3" title="Scheduled">
        {scheduled.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing is scheduled to send.</p>
        ) : (
          <ul className="space-y-2 text-sm">
            {scheduled.map((item) => (
              <li key={item.notificationId}>
                <Link to={`/notifications/${item.notificationId}/details`} className={linkClass}>
                  {item.title}
                </Link>
                <span className="block text-muted-foreground">
                  {item.kind === 'ASSIGNMENT' ? 'Assignment' : 'Message'}, sends {formatDate(item.sendDate, true)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  )
}
