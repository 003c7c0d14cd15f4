//! The template form (create and edit): title, tags, visibility and the questions, which can
//! be added, reordered (Move up / Move down buttons, so the keyboard can do it too), marked
//! required and removed. Field errors from the server land on their fields.

import { zodResolver } from '@hookform/resolvers/zod'
import { useId } from 'react'
import { useFieldArray, useForm, type Path } from 'react-hook-form'
import { useNavigate } from 'react-router'

import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Textarea } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'
import { fieldErrors } from '@/lib/rpc'

import {
  formField,
  MAX_QUESTIONS,
  templateSchema,
  toSaveInput,
  useSaveTemplate,
  VISIBILITIES,
  type TemplateValues,
} from '../api/save-template'
import { VISIBILITY_HINT, VISIBILITY_LABEL } from '../visibility'

export const EMPTY_TEMPLATE: TemplateValues = {
  title: '',
  tags: '',
  visibility: 'SCHOOL',
  questions: [{ questionId: null, text: '', required: false }],
}

export function TemplateForm({ id, defaults }: { id: string | null; defaults: TemplateValues }) {
  const formId = useId()
  const { toast } = useToast()
  const navigate = useNavigate()
  const save = useSaveTemplate()
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<TemplateValues>({ resolver: zodResolver(templateSchema), defaultValues: defaults })
  const { fields, append, move, remove } = useFieldArray({ control, name: 'questions' })

  /** Moves question `index` by `step` and keeps the focus on the same button of its new place. */
  const moveQuestion = (index: number, step: -1 | 1) => {
    const to = index + step
    move(index, to)
    const direction = step < 0 ? 'up' : 'down'
    window.requestAnimationFrame(() => {
      const button = document.getElementById(`${formId}-${direction}-${to}`) as HTMLButtonElement | null
      const fallback = document.getElementById(`${formId}-${direction === 'up' ? 'down' : 'up'}-${to}`)
      if (button && !button.disabled) button.focus()
      else fallback?.focus()
    })
  }

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync(toSaveInput(id, values))
      toast({ title: id ? 'Template saved.' : 'Template created.', tone: 'success' })
      await navigate(`/leaders/templates/${saved.id}`)
    } catch (error) {
      let shown = false
      for (const [serverField, message] of Object.entries(fieldErrors(error))) {
        const field = formField(serverField).replace(/\.id$/, '.text') as Path<TemplateValues>
        setError(field, { message }, { shouldFocus: !shown })
        shown = true
      }
      if (!shown) toast(failureToast(error))
    }
  })

  const questionsError = errors.questions?.message ?? errors.questions?.root?.message
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-6" data-tour="template-form">
      <FormField label="Title" error={errors.title?.message}>
        <Input {...register('title')} />
      </FormField>
      <FormField
        label="Tags"
        hint="Separate tags with commas: at most 10, each up to 50 characters."
        error={errors.tags?.message}
      >
        <Input {...register('tags')} />
      </FormField>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium">Visibility</legend>
        {VISIBILITIES.map((v) => (
          <label key={v} className="flex items-start gap-2 text-sm">
            <input type="radio" value={v} {...register('visibility')} className="mt-0.5 size-4" />
            <span>
              <span className="font-medium">{VISIBILITY_LABEL[v]}</span>
              <span className="text-muted-foreground"> — {VISIBILITY_HINT[v]}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="space-y-4">
        <legend className="text-lg font-semibold">Questions</legend>
        {questionsError && (
          <p className="text-sm text-destructive" role="alert">
            {questionsError}
          </p>
        )}
        <ol className="space-y-4">
          {fields.map((field, index) => {
            const n = index + 1
            return (
              <li key={field.id} className="space-y-2 rounded-lg border border-border p-4">
                <FormField label={`Question ${n}`} error={errors.questions?.[index]?.text?.message}>
                  <Textarea rows={2} {...register(`questions.${index}.text`)} />
                </FormField>
                <div className="flex flex-wrap items-center gap-2">
                  <label className="mr-auto flex items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      {...register(`questions.${index}.required`)}
                      aria-label={`Question ${n} required`}
                      className="size-4"
                    />
                    Required
                  </label>
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    id={`${formId}-up-${index}`}
                    aria-label={`Move question ${n} up`}
                    disabled={index === 0}
                    onClick={() => moveQuestion(index, -1)}
                  >
                    Move up
                  </Button>
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    id={`${formId}-down-${index}`}
                    aria-label={`Move question ${n} down`}
                    disabled={index === fields.length - 1}
                    onClick={() => moveQuestion(index, 1)}
                  >
                    Move down
                  </Button>
                  <Button
                    type="button"
                    size="sm"
                    variant="outline"
                    aria-label={`Remove question ${n}`}
                    disabled={fields.length === 1}
                    onClick={() => remove(index)}
                  >
                    Remove
                  </Button>
                </div>
              </li>
            )
          })}
        </ol>
        <Button
          type="button"
          variant="outline"
          disabled={fields.length >= MAX_QUESTIONS}
          onClick={() => append({ questionId: null, text: '', required: false })}
        >
          Add question
        </Button>
      </fieldset>
      <div className="flex gap-2">
        <Button type="submit" disabled={isSubmitting}>
          Save
        </Button>
        <Button type="button" variant="outline" onClick={() => navigate(id ? `/leaders/templates/${id}` : '/leaders/templates')}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
