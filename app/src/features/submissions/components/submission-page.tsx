//! `/submissions/:id/:token`: the pupil's page (no sign-in). It shows the assignment, lets
//! the pupil write an answer and add files (50 MB in total, checked here with the core's
//! rule and again by the server) and hand in — again until it is marked — and, once
//! marked, shows the feedback.

import { useState } from 'react'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useParams } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FilePicker } from '@/components/ui/file-picker'
import { FormField } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toaster'
import type { PublicSubmissionView } from '@/generated/rpc-types'
import { getCore } from '@/lib/core'
import { formatDate, isoDate } from '@/lib/format-date'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorCode, errorMessage } from '@/lib/rpc'

import { useRefreshSubmission, useSubmission } from '../api/get-submission'
import { handInSchema, useHandIn, type HandInValues } from '../api/hand-in'
import { uploadSubmissionFile } from '../api/upload-file'

/** The server's words for an upload over the total (the same limit as the core's). */
const LINK_INVALID = 'This link is invalid or has expired.'

const SENTIMENT_LABEL = { NEUTRAL: 'Neutral', POSITIVE: 'Positive', NEGATIVE: 'Negative' } as const

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

function FileList({ files }: { files: PublicSubmissionView['files'] }) {
  if (files.length === 0) return null
  return (
    <ul className="space-y-1 text-sm" aria-label="Your files">
      {files.map((file) => (
        <li key={file.id}>
          <a href={file.url} className="text-primary underline-offset-4 hover:underline">
            {file.filename}
          </a>{' '}
          <span className="text-muted-foreground">({formatSize(file.sizeBytes)})</span>
        </li>
      ))}
    </ul>
  )
}

interface Progress {
  filename: string
  fraction: number
}

function HandInForm({ view, id, token }: { view: PublicSubmissionView; id: string; token: string }) {
  const { toast } = useToast()
  const { refresh } = useRefreshSubmission(id, token)
  const handIn = useHandIn(id, token)
  const [uploads, setUploads] = useState<Progress[]>([])
  const [fileError, setFileError] = useState<string>()
  const [chosen, setChosen] = useState<string[]>([])
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<HandInValues>({ resolver: zodResolver(handInSchema), defaultValues: { content: view.content ?? '' } })

  const addFiles = async (list: FileList | null, input: HTMLInputElement) => {
    const files = Array.from(list ?? [])
    input.value = ''
    if (files.length === 0) return
    setChosen(files.map((f) => f.name))
    setFileError(undefined)
    const stored = view.files.reduce((sum, f) => sum + f.sizeBytes, 0)
    const adding = files.reduce((sum, f) => sum + f.size, 0)
    // The core holds the limit and its message, the same ones the server enforces.
    const sizeError = await getCore().uploadSizeError(stored + adding)
    if (sizeError && stored + adding > 0) {
      setFileError(sizeError)
      return
    }
    const empty = files.find((f) => f.size === 0)
    if (empty) {
      setFileError(`${empty.name} is empty.`)
      return
    }
    for (const file of files) {
      setUploads((all) => [...all, { filename: file.name, fraction: 0 }])
      const update = (fraction: number) =>
        setUploads((all) => all.map((u) => (u.filename === file.name ? { ...u, fraction } : u)))
      try {
        await uploadSubmissionFile(id, token, file, update)
      } catch (error) {
        toast({
          title: 'Upload failed',
          description: `${file.name}: ${errorMessage(error)}`,
          tone: 'error',
        })
      } finally {
        setUploads((all) => all.filter((u) => u.filename !== file.name))
      }
    }
    await refresh()
  }

  const onSubmit = handleSubmit(async ({ content }) => {
    try {
      await handIn.mutateAsync({ id, token, content })
      toast({ title: 'Your work has been handed in.', tone: 'success' })
    } catch (error) {
      if (!setServerErrors(error, setError, ['content'])) toast(failureToast(error))
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <FormField label="Your answer" error={errors.content?.message}>
        <textarea
          rows={10}
          className="w-full rounded-md border border-border bg-background px-3 py-2 text-sm outline-none focus-visible:ring-3 focus-visible:ring-ring aria-invalid:border-destructive"
          {...register('content')}
        />
      </FormField>
      <div className="space-y-2">
        <FilePicker
          label="Add files"
          error={fileError}
          hint="PDF, images, office documents, text or recordings; 50 MB in total."
          chosen={chosen}
          multiple
          onChange={(event) => void addFiles(event.target.files, event.target)}
        />
        {uploads.map((upload) => (
          <div key={upload.filename} className="space-y-1 text-sm">
            <span>{upload.filename}</span>
            <progress
              className="block h-2 w-full"
              max={1}
              value={upload.fraction}
              aria-label={`Uploading ${upload.filename}`}
            />
          </div>
        ))}
        <FileList files={view.files} />
      </div>
      <Button type="submit" disabled={isSubmitting || uploads.length > 0}>
        {view.receivedAt ? 'Hand in again' : 'Hand in'}
      </Button>
    </form>
  )
}

export function SubmissionPage() {
  const { id = '', token = '' } = useParams()
  const submission = useSubmission(id, token)

  if (submission.isPending) return <p role="status">Loading…</p>
  if (submission.isError) {
    const invalid = errorCode(submission.error) === 'NOT_FOUND'
    return (
      <div className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">{invalid ? 'Link not valid' : 'Something went wrong'}</h1>
        <p className="text-muted-foreground">{invalid ? LINK_INVALID : errorMessage(submission.error)}</p>
      </div>
    )
  }
  const view = submission.data
  const { assignment } = view
  const marked = view.markedAt !== null
  return (
    <article className="space-y-6">
      <header className="space-y-2">
        <p className="text-sm text-muted-foreground">{assignment.schoolName}</p>
        <h1 className="text-3xl font-bold tracking-tight">{assignment.customTitle || assignment.title}</h1>
        {assignment.submissionDueDate && (
          <p className="text-sm">
            Due <time dateTime={isoDate(assignment.submissionDueDate)}>{formatDate(assignment.submissionDueDate, true)}</time>
          </p>
        )}
      </header>
      <p>Hello {view.pupilForename},</p>
      {/* Sanitised by the server when the notification was saved. */}
      <div className="prose max-w-none" dangerouslySetInnerHTML={{ __html: assignment.body }} />
      {view.receivedAt && (
        <Alert tone="success">
          Handed in on {formatDate(view.receivedAt, true)}
          {view.late ? ' (after the due date)' : ''}.
        </Alert>
      )}
      {marked ? (
        <>
          <section aria-labelledby="feedback-heading" className="space-y-2 rounded-lg border border-border p-5">
            <h2 id="feedback-heading" className="text-lg font-semibold">
              Feedback
            </h2>
            {view.feedbackSentiment && (
              <p className="text-sm font-medium">{SENTIMENT_LABEL[view.feedbackSentiment]}</p>
            )}
            <p className="whitespace-pre-wrap">{view.feedback}</p>
          </section>
          <section aria-labelledby="work-heading" className="space-y-2">
            <h2 id="work-heading" className="text-lg font-semibold">
              Your work
            </h2>
            {view.content && <p className="whitespace-pre-wrap">{view.content}</p>}
            <FileList files={view.files} />
          </section>
        </>
      ) : view.feedbackPending ? (
        // Marked, with the feedback held by the teacher (docs/feedback-release.md).
        <>
          <Alert tone="info">Your teacher has your work. Their feedback will appear here.</Alert>
          <section aria-labelledby="work-heading" className="space-y-2">
            <h2 id="work-heading" className="text-lg font-semibold">
              Your work
            </h2>
            {view.content && <p className="whitespace-pre-wrap">{view.content}</p>}
            <FileList files={view.files} />
          </section>
        </>
      ) : (
        <HandInForm view={view} id={id} token={token} />
      )}
    </article>
  )
}
