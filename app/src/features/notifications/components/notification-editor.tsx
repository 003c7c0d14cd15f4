//! /notifications/create?type=GENERAL|ASSIGNMENT (no type: a message) and /notifications/{id}/edit: the editor
//! for messages and assignments (react-hook-form; the server's field errors are shown on
//! their fields). A notification can be edited only while it is scheduled.

import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useId, useState } from 'react'
import { useController, useForm, useWatch } from 'react-hook-form'
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router'

import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { NotificationDetail } from '@/generated/rpc-types'
import { readAssistantDraft, textToHtml, type EditorDraft } from '@/lib/assistant-notes'
import { usePhotoAnalyser } from '@/lib/capture'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'
import { usePupilWord } from '@/lib/pupil-word'

import {
  EDITOR_FIELDS,
  notificationEditorSchema,
  useCreateNotification,
  type EditorValues,
  type NotificationKind,
} from '../api/create-notification'
import { useNotification } from '../api/get-notification'
import { useUpdateNotification } from '../api/update-notification'
import { AudiencePicker } from './audience-picker'
import { RichTextEditor } from './rich-text-editor'

export type { EditorValues }

type Kind = NotificationKind

/** The 'Feedback release' choices (docs/feedback-release.md). */
const RELEASE_CHOICES = [
  ['WHEN_MARKED', 'When marked'],
  ['ON_DATE', 'On a date'],
  ['BY_HAND', 'By hand'],
] as const

function toLocalInput(date: Date | null): string {
  if (!date) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`
}

function fromLocalInput(text: string): Date | null {
  if (!text) return null
  const date = new Date(text)
  return Number.isNaN(date.getTime()) ? null : date
}

function defaults(existing?: NotificationDetail): EditorValues {
  return {
    title: existing?.title ?? '',
    customTitle: existing?.customTitle ?? '',
    body: existing?.body ?? '',
    sendDate: toLocalInput(existing?.sendDate ?? null),
    submissionDueDate: toLocalInput(existing?.submissionDueDate ?? null),
    sendToPupil: existing?.sendToPupil ?? true,
    sendToParent: existing?.sendToParent ?? true,
    filters: existing?.filters ?? { classes: [], yearGroups: [], formGroups: [], students: [] },
    feedbackRelease: existing?.feedbackRelease ?? 'WHEN_MARKED',
    feedbackReleaseAt: toLocalInput(existing?.feedbackReleaseAt ?? null),
    storedReleaseAt: toLocalInput(existing?.feedbackReleaseAt ?? null),
  }
}

/** A new notification's fields started from a kept draft (the photo analyser's or the AI assistant's). */
function fromDraft(draft: EditorDraft): Partial<EditorValues> {
  const base = defaults()
  return {
    title: draft.title ?? base.title,
    body: draft.bodyHtml,
    sendToPupil: draft.sendToPupil ?? base.sendToPupil,
    sendToParent: draft.sendToParent ?? base.sendToParent,
    filters: { ...base.filters, students: draft.students.map((pupil) => pupil.id) },
  }
}

function EditorForm({ kind, existing, draft }: { kind: Kind; existing?: NotificationDetail; draft?: EditorDraft | null }) {
  const photoAnalyser = usePhotoAnalyser()
  const { toast } = useToast()
  const navigate = useNavigate()
  const create = useCreateNotification()
  const update = useUpdateNotification()
  const bodyLabelId = useId()
  const bodyErrorId = useId()
  const audienceErrorId = useId()
  const word = usePupilWord()
  const {
    register,
    handleSubmit,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<EditorValues>({
    resolver: zodResolver(notificationEditorSchema(kind)),
    defaultValues: { ...defaults(existing), ...(draft && !existing ? fromDraft(draft) : {}) },
  })
  const { field: body } = useController({ control, name: 'body' })
  const filters = useWatch({ control, name: 'filters' })
  const feedbackRelease = useWatch({ control, name: 'feedbackRelease' })
  const releaseErrorId = useId()
  const assignment = kind === 'ASSIGNMENT'

  const onSubmit = handleSubmit(async (values) => {
    const fields = {
      title: values.title,
      customTitle: values.customTitle || null,
      body: values.body,
      sendDate: fromLocalInput(values.sendDate),
      submissionDueDate: assignment ? fromLocalInput(values.submissionDueDate) : null,
      sendToPupil: values.sendToPupil,
      sendToParent: values.sendToParent,
      filters: values.filters,
      ...(assignment
        ? {
            feedbackRelease: values.feedbackRelease,
            feedbackReleaseAt: values.feedbackRelease === 'ON_DATE' ? fromLocalInput(values.feedbackReleaseAt) : null,
          }
        : {}),
    }
    try {
      const saved = existing
        ? await update.mutateAsync({ id: existing.id, ...fields })
        : await create({ type: kind, ...fields })
      if (!saved) {
        toast({
          title: `${assignment ? 'Assignment' : 'Message'} kept on this device.`,
          description: 'It will be sent when Voicemark can be reached. The Outbox shows it.',
          tone: 'success',
        })
        void navigate('/notifications')
        return
      }
      toast({
        title: saved.status === 'SCHEDULED' ? `${assignment ? 'Assignment' : 'Message'} scheduled.` : `${assignment ? 'Assignment' : 'Message'} is being sent.`,
        tone: 'success',
      })
      void navigate(`/notifications/${saved.id}/details`)
    } catch (error) {
      if (!setServerErrors(error, setError, EDITOR_FIELDS)) toast(failureToast(error))
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6">
      <Section title={assignment ? 'Assignment' : 'Message'}>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Title" error={errors.title?.message}>
            <Input {...register('title')} />
          </FormField>
          <FormField label="Custom title" error={errors.customTitle?.message} hint={`Optional: the subject line ${word.many} and parents see.`}>
            <Input {...register('customTitle')} />
          </FormField>
        </div>
        <div className="space-y-1.5">
          <div className="flex items-center justify-between gap-2">
            <span id={bodyLabelId} className="text-sm font-medium">
              Message
            </span>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() =>
                photoAnalyser.open({
                  label: 'Insert into message',
                  use: (text) => body.onChange(body.value + textToHtml(text)),
                })
              }
            >
              Analyse photos
            </Button>
          </div>
          <RichTextEditor
            value={body.value}
            onChange={body.onChange}
            labelId={bodyLabelId}
            invalid={!!errors.body}
            describedBy={errors.body ? bodyErrorId : undefined}
          />
          {errors.body && (
            <p id={bodyErrorId} className="text-sm text-destructive">
              {errors.body.message}
            </p>
          )}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Send date" error={errors.sendDate?.message} hint="Leave empty to send now.">
            <Input type="datetime-local" {...register('sendDate')} />
          </FormField>
          {assignment && (
            <FormField label="Due date" error={errors.submissionDueDate?.message}>
              <Input type="datetime-local" {...register('submissionDueDate')} />
            </FormField>
          )}
        </div>
        <fieldset className="space-y-2" aria-describedby={errors.sendToPupil ? audienceErrorId : undefined}>
          <legend className="text-sm font-medium">Send to</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" {...register('sendToPupil')} />
            {word.Many}
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" {...register('sendToParent')} />
            Parents
          </label>
          {errors.sendToPupil && (
            <p id={audienceErrorId} className="text-sm text-destructive">
              {errors.sendToPupil.message}
            </p>
          )}
        </fieldset>
        {assignment && (
          <fieldset className="space-y-2" aria-describedby={errors.feedbackRelease ? releaseErrorId : undefined}>
            <legend className="text-sm font-medium">Feedback release</legend>
            {RELEASE_CHOICES.map(([value, label]) => (
              <label key={value} className="flex items-center gap-2 text-sm">
                <input type="radio" value={value} className="size-4 accent-primary" {...register('feedbackRelease')} />
                {label}
              </label>
            ))}
            {errors.feedbackRelease && (
              <p id={releaseErrorId} className="text-sm text-destructive">
                {errors.feedbackRelease.message}
              </p>
            )}
            {feedbackRelease === 'ON_DATE' && (
              <FormField label="Release date" error={errors.feedbackReleaseAt?.message} hint={`Marks are kept from ${word.many} and parents until then.`}>
                <Input type="datetime-local" {...register('feedbackReleaseAt')} />
              </FormField>
            )}
          </fieldset>
        )}
      </Section>
      <AudiencePicker register={register} filters={filters} error={errors.filters?.message ?? errors.filters?.root?.message} />
      <div className="flex gap-2">
        <Button type="submit" disabled={isSubmitting}>
          {existing ? 'Save changes' : assignment ? 'Send assignment' : 'Send message'}
        </Button>
        <Button asChild variant="outline">
          <Link to={existing ? `/notifications/${existing.id}/details` : '/notifications'}>Cancel</Link>
        </Button>
      </div>
    </form>
  )
}

export function CreateNotificationPage() {
  const [params] = useSearchParams()
  // Only `type=ASSIGNMENT` makes an assignment: the palette's 'New message' and the photo
  // result's 'Create message' open /notifications/create with no type, and mean a message.
  const kind: Kind = params.get('type') === 'ASSIGNMENT' ? 'ASSIGNMENT' : 'GENERAL'
  useEffect(() => {
    document.title = kind === 'ASSIGNMENT' ? 'New assignment · Voicemark' : 'New message · Voicemark'
  }, [kind])
  // Opened from the photo analyser's 'Create message' or the AI assistant's 'Open in
  // editor': the kept draft starts the form. Each such opening is a fresh form, even from
  // this page itself (the location's key changes with every navigation).
  const { key: visit } = useLocation()
  const fromAssistant = params.get('assistant') === '1'
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold tracking-tight">{kind === 'ASSIGNMENT' ? 'New assignment' : 'New message'}</h1>
      <NewEditorForm key={fromAssistant ? `${kind}:${visit}` : kind} kind={kind} fromDraft={fromAssistant} />
    </div>
  )
}

/** A new notification's form, started from the kept draft when asked (read once, so typing is never overwritten). */
function NewEditorForm({ kind, fromDraft }: { kind: Kind; fromDraft: boolean }) {
  const [draft] = useState(() => (fromDraft ? readAssistantDraft() : null))
  return <EditorForm kind={kind} draft={draft} />
}

export function EditNotificationPage() {
  const { id = '' } = useParams()
  const notification = useNotification(id)
  const data = notification.data
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold tracking-tight">{data?.type === 'GENERAL' ? 'Edit message' : 'Edit assignment'}</h1>
      {notification.isPending && <p role="status">Loading…</p>}
      {notification.isError && <Alert>{errorMessage(notification.error)}</Alert>}
      {data && !data.editable && (
        <Alert tone="info">
          This notification has already been sent. <Link to={`/notifications/${data.id}/details`} className="underline">View it</Link>.
        </Alert>
      )}
      {data?.editable && <EditorForm kind={data.type} existing={data} />}
    </div>
  )
}
