//! `/feedback`: the Feedback Hub — work handed in and waiting for feedback, oldest first,
//! filtered by assignment or class — and the marking panel (feedback, sentiment, Mark).

import { MessageSquareText } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'

import { EmptyState } from '@/components/empty-state'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Label, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { HubItem } from '@/generated/rpc-types'
import { useDictation, usePhotoAnalyser } from '@/lib/capture'
import { formatDate, isoDate } from '@/lib/format-date'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'
import { cn } from '@/lib/utils'

import { useFeedbackHub, type HubFilters } from '../api/list-feedback'
import { markSchema, useMarkSubmission, useMarksOnTheirWay, type MarkValues } from '../api/mark-submission'

const SENTIMENTS = [
  ['NEUTRAL', 'Neutral'],
  ['POSITIVE', 'Positive'],
  ['NEGATIVE', 'Negative'],
] as const

function MarkingPanel({ item, onMarked }: { item: HubItem; onMarked: () => void }) {
  const { toast } = useToast()
  const mark = useMarkSubmission()
  const photoAnalyser = usePhotoAnalyser()
  const dictation = useDictation()
  const sentimentId = useId()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    setValue,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<MarkValues>({ resolver: zodResolver(markSchema), defaultValues: { feedback: '', sentiment: 'NEUTRAL' } })
  useEffect(() => reset({ feedback: '', sentiment: 'NEUTRAL' }), [item.submissionId, reset])

  const onSubmit = handleSubmit(async (values) => {
    try {
      const sent = await mark(item.submissionId, `${item.studentForename} ${item.studentSurname}`, values)
      if (sent) toast({ title: 'Feedback saved.', tone: 'success' })
      else
        toast({
          title: 'Feedback kept on this device.',
          description: 'It will be sent when Voicemark can be reached. The Outbox shows it.',
          tone: 'success',
        })
      onMarked()
    } catch (error) {
      if (!setServerErrors(error, setError, ['feedback', 'sentiment'])) toast(failureToast(error))
    }
  })

  const name = `${item.studentForename} ${item.studentSurname}`
  return (
    <section aria-labelledby="marking-heading" className="space-y-4 rounded-lg border border-border p-5">
      <div className="space-y-1">
        <h2 id="marking-heading" className="text-lg font-semibold">
          {name}: {item.notificationTitle}
        </h2>
        <p className="text-sm text-muted-foreground">
          Handed in <time dateTime={isoDate(item.receivedAt)}>{formatDate(item.receivedAt, true)}</time>
          {item.late ? ' (late)' : ''}
        </p>
        <Link to={`/students/${item.studentId}`} className="text-sm text-primary underline-offset-4 hover:underline">
          View {name}'s profile
        </Link>
      </div>
      <div className="space-y-2">
        <h3 className="text-sm font-medium">Their work</h3>
        {item.content ? (
          <p className="max-h-72 overflow-auto rounded-md bg-muted p-3 text-sm whitespace-pre-wrap">{item.content}</p>
        ) : (
          <p className="text-sm text-muted-foreground">No written answer.</p>
        )}
        {item.files.length > 0 && (
          <ul className="space-y-1 text-sm" aria-label="Files handed in">
            {item.files.map((file) => (
              <li key={file.id}>
                <a href={file.url} className="text-primary underline-offset-4 hover:underline">
                  {file.filename}
                </a>
              </li>
            ))}
          </ul>
        )}
      </div>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormField label="Feedback" error={errors.feedback?.message}>
          <textarea
            rows={6}
            className="w-full rounded-md border border-border bg-background px-3 py-2 text-sm outline-none focus-visible:ring-3 focus-visible:ring-ring aria-invalid:border-destructive"
            {...register('feedback')}
          />
        </FormField>
        <fieldset className="space-y-2" aria-describedby={errors.sentiment ? `${sentimentId}-error` : undefined}>
          <legend className="text-sm font-medium">Sentiment</legend>
          <div className="flex flex-wrap gap-4">
            {SENTIMENTS.map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input type="radio" value={value} className="size-4 accent-primary" {...register('sentiment')} />
                {label}
              </label>
            ))}
          </div>
          {errors.sentiment && (
            <p id={`${sentimentId}-error`} className="text-sm text-destructive">
              {errors.sentiment.message}
            </p>
          )}
        </fieldset>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={isSubmitting}>
            Mark
          </Button>
          <Button
            type="button"
            variant="outline"
            onClick={() =>
              photoAnalyser.open({
                label: 'Use as feedback',
                use: (text) => setValue('feedback', text, { shouldDirty: true, shouldValidate: true }),
              })
            }
          >
            Analyse photos
          </Button>
          <Button
            type="button"
            variant="outline"
            onClick={() =>
              dictation.open((text) => {
                const current = getValues('feedback').trimEnd()
                setValue('feedback', current ? `${current} ${text}` : text, { shouldDirty: true, shouldValidate: true })
              })
            }
          >
            Dictate
          </Button>
        </div>
      </form>
    </section>
  )
}

export function FeedbackHubPage() {
  const [filters, setFilters] = useState<HubFilters>({ notificationId: null, classId: null })
  const [selected, setSelected] = useState<string | null>(null)
  const hub = useFeedbackHub(filters)
  const onTheirWay = useMarksOnTheirWay()
  const items = (hub.data?.items ?? []).filter((item) => !onTheirWay.has(item.submissionId))
  const current = items.find((item) => item.submissionId === selected) ?? items[0]
  const notificationFilter = useId()
  const classFilter = useId()

  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Feedback Hub</h1>
        <p className="text-muted-foreground">Work handed in and waiting for your feedback, oldest first.</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={notificationFilter}>Assignment</Label>
          <Select
            id={notificationFilter}
            value={filters.notificationId ?? ''}
            onChange={(event) => setFilters((f) => ({ ...f, notificationId: event.target.value || null }))}
          >
            <option value="">All assignments</option>
            {hub.data?.notifications.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={classFilter}>Class</Label>
          <Select
            id={classFilter}
            value={filters.classId ?? ''}
            onChange={(event) => setFilters((f) => ({ ...f, classId: event.target.value || null }))}
          >
            <option value="">All classes</option>
            {hub.data?.classes.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {hub.isError && <Alert>The Feedback Hub could not be loaded: {errorMessage(hub.error)}</Alert>}
      {hub.isPending && <p role="status">Loading…</p>}
      {hub.data && items.length === 0 &&
        (filters.notificationId || filters.classId ? (
          <EmptyState
            icon={MessageSquareText}
            title="Nothing is waiting for feedback here"
            action={
              <Button variant="outline" onClick={() => setFilters({ notificationId: null, classId: null })}>
                Show all assignments and classes
              </Button>
            }
          >
            No work handed in for this assignment and class is waiting for your feedback.
          </EmptyState>
        ) : (
          <EmptyState
            icon={MessageSquareText}
            title="Nothing is waiting for feedback"
            action={
              <Button asChild variant="outline">
                <Link to="/notifications/create?type=ASSIGNMENT">New assignment</Link>
              </Button>
            }
          >
            Work pupils hand in for your assignments comes here, oldest first.
          </EmptyState>
        ))}
      {items.length > 0 && current && (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <section aria-labelledby="waiting-heading" className="space-y-2">
            <h2 id="waiting-heading" className="text-lg font-semibold">
              Waiting ({items.length})
            </h2>
            <ul className="space-y-2" aria-label="Submissions waiting for feedback">
              {items.map((item) => {
                const active = item.submissionId === current.submissionId
                return (
                  <li key={item.submissionId}>
                    <button
                      type="button"
                      aria-pressed={active}
                      onClick={() => setSelected(item.submissionId)}
                      className={cn(
                        'w-full rounded-md border border-border px-4 py-3 text-left text-sm hover:bg-muted focus-visible:ring-3 focus-visible:ring-ring focus-visible:outline-none',
                        active && 'border-primary bg-muted',
                      )}
                    >
                      <span className="block font-medium">
                        {item.studentForename} {item.studentSurname}
                      </span>
                      <span className="block text-muted-foreground">{item.notificationTitle}</span>
                      <span className="block text-muted-foreground">
                        Handed in {formatDate(item.receivedAt, true)}
                        {item.late ? ' (late)' : ''}
                      </span>
                    </button>
                  </li>
                )
              })}
            </ul>
          </section>
          <MarkingPanel item={current} onMarked={() => setSelected(null)} />
        </div>
      )}
    </div>
  )
}
