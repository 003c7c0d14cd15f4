//! Bulk feedback: the same comment and sentiment for every chosen submission, in one action.
//! Each pupil's mark is its own (through the outbox, so each pupil still gets their own
//! e-mail), with `{name}` filled with that pupil's first name.

import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'

import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { useToast } from '@/components/ui/toaster'
import type { HubItem } from '@/generated/rpc-types'
import { CommentBankField } from '@/components/comment-bank-field'
import { fillName } from '@/lib/comment-bank'
import { failureToast, setServerErrors } from '@/lib/form-errors'

import { markSchema, useMarkSubmission, type MarkValues } from '../api/mark-submission'
import { textareaClass } from './marking-panel'
import { SentimentField } from './sentiment-field'

const pupils = (n: number) => `${n} pupil${n === 1 ? '' : 's'}`

export function BulkPanel({ items, onDone, onClear }: { items: HubItem[]; onDone: () => void; onClear: () => void }) {
  const { toast } = useToast()
  const mark = useMarkSubmission()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<MarkValues>({ resolver: zodResolver(markSchema), defaultValues: { feedback: '', sentiment: 'NEUTRAL' } })

  const onSubmit = handleSubmit(async (values) => {
    let sent = 0
    let kept = 0
    for (const item of items) {
      try {
        const outcome = await mark(item.submissionId, `${item.studentForename} ${item.studentSurname}`, {
          ...values,
          feedback: fillName(values.feedback, item.studentForename),
        })
        if (outcome) sent += 1
        else kept += 1
      } catch (error) {
        // The first refusal stops the rest: the form says why, the marks made so far stand.
        if (!setServerErrors(error, setError, ['feedback', 'sentiment'])) toast(failureToast(error))
        if (sent + kept > 0) toast({ title: `Feedback saved for ${pupils(sent + kept)}.`, tone: 'success' })
        onDone()
        return
      }
    }
    toast(
      kept === 0
        ? { title: `Feedback saved for ${pupils(sent)}.`, tone: 'success' }
        : {
            title: `Feedback for ${pupils(kept)} kept on this device.`,
            description: 'It will be sent when Voicemark can be reached. The Outbox shows it.',
            tone: 'success',
          },
    )
    onDone()
  })

  return (
    <section aria-labelledby="bulk-heading" className="space-y-4 rounded-lg border border-border p-4 sm:p-5">
      <div className="space-y-1">
        <h2 id="bulk-heading" className="text-lg font-semibold">
          Feedback for {pupils(items.length)}
        </h2>
        <p className="text-sm text-muted-foreground">
          Each pupil gets this feedback as their own, by e-mail as usual. Write {'{name}'} for the pupil's first name.
        </p>
        <ul className="flex flex-wrap gap-x-3 text-sm" aria-label="Chosen submissions">
          {items.map((item) => (
            <li key={item.submissionId}>
              {item.studentForename} {item.studentSurname}
            </li>
          ))}
        </ul>
      </div>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormField label="Feedback for each" error={errors.feedback?.message}>
          <CommentBankField rows={5} className={textareaClass} {...register('feedback')} />
        </FormField>
        <SentimentField field={register('sentiment')} error={errors.sentiment?.message} />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={isSubmitting}>
            Mark {items.length}
          </Button>
          <Button type="button" variant="outline" onClick={onClear}>
            Clear selection
          </Button>
        </div>
      </form>
    </section>
  )
}
