//! The marking panel: the pupil's work, then Feedback, Sentiment and Mark. The Hub drives it
//! from the keyboard through `controls` (1 2 3, Ctrl+Enter, D) and asks it to put the focus in
//! the feedback box when a teacher moves on from a mark.

import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react'
import { useForm } from 'react-hook-form'

import { CommentBankField, SaveToCommentBankButton } from '@/components/comment-bank-field'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toaster'
import type { HubItem } from '@/generated/rpc-types'
import { useDictation, usePhotoAnalyser } from '@/lib/capture'
import { formatDate, isoDate } from '@/lib/format-date'
import { failureToast, setServerErrors } from '@/lib/form-errors'

import { markSchema, useMarkSubmission, type MarkValues } from '../api/mark-submission'
import { SentimentField } from './sentiment-field'
import { SubmissionPanel } from './submission-panel'
import { SubmissionWork } from './submission-work'

export type Sentiment = MarkValues['sentiment']

/** What the Hub's keys do to the panel. */
export interface PanelControls {
  setSentiment(sentiment: Sentiment): void
  mark(): void
  dictate(): void
  focusFeedback(): void
}

export const textareaClass =
  'w-full rounded-md border border-border bg-background px-3 py-2 text-sm outline-none focus-visible:ring-3 focus-visible:ring-ring aria-invalid:border-destructive'

export function MarkingPanel({
  item,
  controls,
  focusOnOpen,
  onMarked,
  onLeaveFeedback,
}: {
  item: HubItem
  controls: Ref<PanelControls>
  /** Put the focus in the feedback box when this submission opens (after marking the one before). */
  focusOnOpen: boolean
  onMarked: () => void
  /** Escape in the feedback box: back to the list. */
  onLeaveFeedback: () => void
}) {
  const { toast } = useToast()
  const mark = useMarkSubmission()
  const photoAnalyser = usePhotoAnalyser()
  const dictation = useDictation()
  const feedbackBox = useRef<HTMLTextAreaElement | null>(null)
  const {
    register,
    handleSubmit,
    setError,
    reset,
    setValue,
    getValues,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<MarkValues>({ resolver: zodResolver(markSchema), defaultValues: { feedback: '', sentiment: 'NEUTRAL' } })
  useEffect(() => {
    reset({ feedback: '', sentiment: 'NEUTRAL' })
    if (focusOnOpen) feedbackBox.current?.focus()
    // A new submission (not a new wish to focus) resets the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [item.submissionId, reset])

  const name = `${item.studentForename} ${item.studentSurname}`
  const onSubmit = handleSubmit(async (values) => {
    try {
      const sent = await mark(item.submissionId, name, values)
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

  const appendFeedback = (text: string) => {
    const current = getValues('feedback').trimEnd()
    setValue('feedback', current ? `${current} ${text}` : text, { shouldDirty: true, shouldValidate: true })
  }
  const dictate = () => dictation.open(appendFeedback)

  useImperativeHandle(controls, () => ({
    setSentiment: (sentiment) => setValue('sentiment', sentiment, { shouldDirty: true }),
    mark: () => void onSubmit(),
    dictate,
    focusFeedback: () => feedbackBox.current?.focus(),
  }))

  const feedbackField = register('feedback')
  const [feedbackText, sentiment] = watch(['feedback', 'sentiment'])
  return (
    <SubmissionPanel
      headingId="marking-heading"
      pupil={name}
      studentId={item.studentId}
      title={item.notificationTitle}
      about={
        <>
          Handed in <time dateTime={isoDate(item.receivedAt)}>{formatDate(item.receivedAt, true)}</time>
          {item.late ? ' (late)' : ''}
        </>
      }
    >
      <SubmissionWork
        content={item.content}
        files={item.files}
        pupil={name}
        onAnalysePhotos={(photos) =>
          photoAnalyser.open({
            label: 'Use as feedback',
            use: (text) => setValue('feedback', text, { shouldDirty: true, shouldValidate: true }),
            photos,
          })
        }
      />
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormField label="Feedback" error={errors.feedback?.message}>
          <CommentBankField
            rows={6}
            className={textareaClass}
            pupilFirstName={item.studentForename}
            {...feedbackField}
            ref={(element: HTMLTextAreaElement | null) => {
              feedbackField.ref(element)
              feedbackBox.current = element
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && !event.defaultPrevented) {
                event.preventDefault()
                onLeaveFeedback()
              }
            }}
          />
        </FormField>
        <SentimentField field={register('sentiment')} error={errors.sentiment?.message} />
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
          <Button type="button" variant="outline" onClick={dictate}>
            Dictate
          </Button>
          <SaveToCommentBankButton text={feedbackText} sentiment={sentiment} className="h-10" />
        </div>
      </form>
    </SubmissionPanel>
  )
}
