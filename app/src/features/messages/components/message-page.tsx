//! `/messages/:token`: a message as its e-mail's signed link shows it (no sign-in;
//! docs/reach.md). The link went through `/api/reach/open/{token}` first, which counted
//! the message as opened.

import { useParams } from 'react-router'

import { formatDate, isoDate } from '@/lib/format-date'
import { errorCode, errorMessage } from '@/lib/rpc'

import { usePublicMessage } from '../api/get-message'

export function MessagePage() {
  const { token = '' } = useParams()
  const message = usePublicMessage(token)

  if (message.isPending) return <p role="status">Loading…</p>
  if (message.isError) {
    const invalid = errorCode(message.error) === 'NOT_FOUND'
    return (
      <div className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">{invalid ? 'Link not valid' : 'Something went wrong'}</h1>
        <p className="text-muted-foreground">
          {invalid ? 'This link is not valid. Open the message from the e-mail again, or ask the school.' : errorMessage(message.error)}
        </p>
      </div>
    )
  }
  const m = message.data
  return (
    <article className="space-y-6">
      <header className="space-y-2">
        <p className="text-sm text-muted-foreground">
          {m.school} sent a message about {m.toParent ? m.about : 'your learning'}
        </p>
        <h1 className="text-3xl font-bold tracking-tight">{m.title}</h1>
        {m.submissionDueDate && (
          <p className="text-sm">
            Due <time dateTime={isoDate(m.submissionDueDate)}>{formatDate(m.submissionDueDate, true)}</time>
          </p>
        )}
      </header>
      {!m.toParent && <p>Hello {m.about},</p>}
      {/* Sanitised by the server when the notification was saved. */}
      <div className="prose max-w-none" dangerouslySetInnerHTML={{ __html: m.body }} />
    </article>
  )
}
