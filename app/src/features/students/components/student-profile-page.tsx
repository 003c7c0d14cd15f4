//! `/students/:id`: a pupil's profile — details, year and form group, classes, the
//! timeline of their submissions and feedback, and staff comments (the author may delete).

import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useParams } from 'react-router'

import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toaster'
import type { StudentProfile, TimelineEntry } from '@/generated/rpc-types'
import { formatDate, isoDate } from '@/lib/format-date'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorCode, errorMessage } from '@/lib/rpc'
import { cn } from '@/lib/utils'
import { usePupilWord } from '@/lib/pupil-word'

import { commentSchema, useAddComment, useUnsentComments, type CommentValues } from '../api/add-comment'
import { useDeleteComment } from '../api/delete-comment'
import { useStudent } from '../api/get-student'
import { useComments } from '../api/student-comments'
import { useTimeline } from '../api/student-timeline'
import { StudentInsights } from './student-insights'

const SENTIMENT = {
  NEUTRAL: ['Neutral', 'bg-muted text-foreground'],
  POSITIVE: ['Positive', 'bg-green-100 text-green-900'],
  NEGATIVE: ['Negative', 'bg-red-100 text-red-900'],
} as const

function Details({ student }: { student: StudentProfile }) {
  const rows: Array<[string, string]> = [
    ['Year group', student.yearGroup ?? '—'],
    ['Form group', student.formGroup ?? '—'],
    ['Classes', student.classes.map((c) => c.name).join(', ') || '—'],
    ['UPN', student.upn ?? '—'],
    ['E-mail', student.email ?? '—'],
    ["Parent's e-mail", student.parentEmail ?? '—'],
  ]
  return (
    <div className="space-y-3">
      <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium">{label}</dt>
            <dd className="text-muted-foreground">{value}</dd>
          </div>
        ))}
      </dl>
      {student.refusedAddresses.map((r) => (
        <Alert key={r.audience} tone="info">
          {r.sentence}
        </Alert>
      ))}
    </div>
  )
}

function Entry({ entry }: { entry: TimelineEntry }) {
  const sentiment = entry.feedbackSentiment ? SENTIMENT[entry.feedbackSentiment] : null
  return (
    <li className="space-y-1 border-l-2 border-border pl-4">
      <h3 className="font-medium">{entry.notificationTitle}</h3>
      <p className="text-sm text-muted-foreground">
        {entry.sendDate && <>Sent {formatDate(entry.sendDate)}. </>}
        {entry.submissionDueDate && <>Due {formatDate(entry.submissionDueDate)}. </>}
        {entry.receivedAt ? (
          <>
            Handed in <time dateTime={isoDate(entry.receivedAt)}>{formatDate(entry.receivedAt, true)}</time>
            {entry.late ? ' (late)' : ''}.{' '}
          </>
        ) : (
          <>Not handed in. </>
        )}
        {entry.markedAt && <>Marked {formatDate(entry.markedAt, true)}.</>}
      </p>
      {sentiment && (
        <span className={cn('inline-block rounded-full px-2 py-0.5 text-xs font-medium', sentiment[1])}>
          {sentiment[0]}
        </span>
      )}
      {entry.feedback && <p className="text-sm whitespace-pre-wrap">{entry.feedback}</p>}
    </li>
  )
}

function Comments({ studentId, pupilName }: { studentId: string; pupilName: string }) {
  const { toast } = useToast()
  const comments = useComments(studentId)
  const add = useAddComment(studentId, pupilName)
  const unsent = useUnsentComments(studentId)
  const remove = useDeleteComment(studentId)
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<CommentValues>({ resolver: zodResolver(commentSchema), defaultValues: { comment: '' } })

  const onSubmit = handleSubmit(async ({ comment }) => {
    try {
      const sent = await add(comment)
      reset()
      if (!sent)
        toast({
          title: 'Comment kept on this device.',
          description: 'It will be sent when Voicemark can be reached. The Outbox shows it.',
          tone: 'success',
        })
    } catch (error) {
      if (!setServerErrors(error, setError, ['comment'])) toast(failureToast(error))
    }
  })

  const onDelete = async (id: string) => {
    try {
      await remove.mutateAsync({ id })
      toast({ title: 'Comment deleted.', tone: 'success' })
    } catch (error) {
      toast(failureToast(error))
    }
  }

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="space-y-3">
        <FormField label="Add a comment" error={errors.comment?.message}>
          <textarea
            rows={3}
            className="w-full rounded-md border border-border bg-background px-3 py-2 text-sm outline-none focus-visible:ring-3 focus-visible:ring-ring aria-invalid:border-destructive"
            {...register('comment')}
          />
        </FormField>
        <Button type="submit" disabled={isSubmitting}>
          Add comment
        </Button>
      </form>
      {unsent.length > 0 && (
        <ul className="space-y-3" aria-label="Comments not sent yet">
          {unsent.map(({ id, comment, item }) => (
            <li key={id} className="space-y-1 rounded-md border border-dashed border-border p-3 text-sm">
              <p className="whitespace-pre-wrap">{comment}</p>
              <p className="text-muted-foreground">
                {item.state === 'stuck' ? `Not sent: ${item.reason ?? ''}` : 'Not sent yet: it is in the Outbox.'}
              </p>
            </li>
          ))}
        </ul>
      )}
      {comments.isError && <Alert>Comments could not be loaded: {errorMessage(comments.error)}</Alert>}
      {comments.data && comments.data.length === 0 && <p className="text-sm text-muted-foreground">No comments yet.</p>}
      {comments.data && comments.data.length > 0 && (
        <ul className="space-y-3" aria-label="Comments">
          {comments.data.map((comment) => (
            <li key={comment.id} className="space-y-1 rounded-md bg-muted p-3 text-sm">
              <p className="whitespace-pre-wrap">{comment.comment}</p>
              <div className="flex items-center justify-between gap-2 text-muted-foreground">
                <span>
                  {comment.authorName}, <time dateTime={isoDate(comment.createdAt)}>{formatDate(comment.createdAt, true)}</time>
                </span>
                {comment.mine && (
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => void onDelete(comment.id)}
                    aria-label={`Delete your comment of ${formatDate(comment.createdAt, true)}`}
                  >
                    Delete
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

export function StudentProfilePage() {
  const { id = '' } = useParams()
  const student = useStudent(id)
  const timeline = useTimeline(id)
  const word = usePupilWord()

  if (student.isPending) return <p role="status">Loading…</p>
  if (student.isError) {
    const missing = errorCode(student.error) === 'NOT_FOUND'
    return (
      <div className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">{word.One} profile</h1>
        <p className="text-muted-foreground">{missing ? `This ${word.one} could not be found.` : errorMessage(student.error)}</p>
      </div>
    )
  }
  const pupil = student.data
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">
          {pupil.forename} {pupil.surname}
        </h1>
        <p className="text-muted-foreground">
          {[pupil.yearGroup, pupil.formGroup].filter(Boolean).join(' · ') || `${word.One} profile`}
        </p>
      </div>
      <Section title="Details">
        <Details student={pupil} />
      </Section>
      <Section title="Timeline">
        {timeline.isError && <Alert>The timeline could not be loaded: {errorMessage(timeline.error)}</Alert>}
        {timeline.data && timeline.data.length === 0 && (
          <p className="text-sm text-muted-foreground">No assignments yet.</p>
        )}
        {timeline.data && timeline.data.length > 0 && (
          <ol className="space-y-4" aria-label="Submissions and feedback">
            {timeline.data.map((entry) => (
              <Entry key={entry.submissionId} entry={entry} />
            ))}
          </ol>
        )}
      </Section>
      <Section title="Insights">
        <StudentInsights studentId={pupil.id} />
      </Section>
      <Section title="Comments">
        <Comments studentId={pupil.id} pupilName={`${pupil.forename} ${pupil.surname}`} />
      </Section>
    </div>
  )
}
