//! A marked submission opened from 'Marked (N)': the work and the feedback. While the
//! feedback is held the teacher may edit it ('Save changes', a new `feedback.mark`) or take
//! the mark back ('Withdraw mark': the submission waits again); once released it is read-only.

import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'

import { CommentBankField, SaveToCommentBankButton } from '@/components/comment-bank-field'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toaster'
import type { MarkedItem } from '@/generated/rpc-types'
import { formatDate, isoDate } from '@/lib/format-date'
import { failureToast, setServerErrors } from '@/lib/form-errors'

import { markSchema, useMarkSubmission, type MarkValues } from '../api/mark-submission'
import { useWithdrawMark } from '../api/release'
import { textareaClass } from './marking-panel'
import { releaseText, SENTIMENT_LABEL } from './release-text'
import { SentimentField } from './sentiment-field'
import { SubmissionPanel } from './submission-panel'
import { SubmissionWork } from './submission-work'

export function MarkedPanel({ item, onWithdrawn }: { item: MarkedItem; onWithdrawn: () => void }) {
  const { toast } = useToast()
  const mark = useMarkSubmission()
  const withdraw = useWithdrawMark()
  const [asking, setAsking] = useState(false)
  const held = item.release !== 'RELEASED'
  const name = `${item.studentForename} ${item.studentSurname}`
  const values = { feedback: item.feedback, sentiment: item.feedbackSentiment }
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<MarkValues>({ resolver: zodResolver(markSchema), defaultValues: values })
  useEffect(() => reset({ feedback: item.feedback, sentiment: item.feedbackSentiment }), [item, reset])

  const onSave = handleSubmit(async (next) => {
    try {
      const sent = await mark(item.submissionId, name, next)
      toast(
        sent
          ? { title: 'Feedback changed.', tone: 'success' }
          : {
              title: 'The change is kept on this device.',
              description: 'It will be sent when Voicemark can be reached. The Outbox shows it.',
              tone: 'success',
            },
      )
    } catch (error) {
      if (!setServerErrors(error, setError, ['feedback', 'sentiment'])) toast(failureToast(error))
    }
  })

  const onWithdraw = async () => {
    try {
      await withdraw.mutateAsync({ submissionId: item.submissionId })
      toast({ title: 'Mark withdrawn. The work waits for feedback again.', tone: 'success' })
      setAsking(false)
      onWithdrawn()
    } catch (error) {
      toast(failureToast(error))
    }
  }

  return (
    <SubmissionPanel
      headingId="marked-heading"
      pupil={name}
      studentId={item.studentId}
      title={item.notificationTitle}
      about={
        <>
          Marked <time dateTime={isoDate(item.markedAt)}>{formatDate(item.markedAt, true)}</time> ·{' '}
          {item.releasedAt ? `Released ${formatDate(item.releasedAt, true)}` : releaseText(item.release, item.releaseAt)}
        </>
      }
    >
      <SubmissionWork content={item.content} files={item.files} pupil={name} />
      {held ? (
        <form onSubmit={onSave} noValidate className="space-y-4">
          <FormField label="Feedback" error={errors.feedback?.message}>
            <CommentBankField rows={6} className={textareaClass} pupilFirstName={item.studentForename} {...register('feedback')} />
          </FormField>
          <SentimentField field={register('sentiment')} error={errors.sentiment?.message} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={isSubmitting || !isDirty}>
              Save changes
            </Button>
            <Button type="button" variant="outline" onClick={() => setAsking(true)}>
              Withdraw mark
            </Button>
          </div>
        </form>
      ) : (
        <div className="space-y-2">
          <h3 className="text-sm font-medium">Feedback ({SENTIMENT_LABEL[item.feedbackSentiment]})</h3>
          <p className="rounded-md bg-muted p-3 text-sm whitespace-pre-wrap">{item.feedback}</p>
          <p className="text-sm text-muted-foreground">Pupils and parents have this feedback, so it can no longer be changed.</p>
          <SaveToCommentBankButton text={item.feedback} sentiment={item.feedbackSentiment} />
        </div>
      )}
      <Dialog open={asking} onOpenChange={setAsking}>
        <DialogContent>
          <DialogTitle className="text-lg font-semibold">Withdraw the mark for {name}?</DialogTitle>
          <DialogDescription className="mt-2 text-sm text-muted-foreground">
            The feedback is deleted and the work waits in the Feedback Hub again. Nobody has seen it yet.
          </DialogDescription>
          <div className="mt-6 flex flex-wrap justify-end gap-2">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button onClick={() => void onWithdraw()} disabled={withdraw.isPending}>
              Withdraw mark
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </SubmissionPanel>
  )
}
