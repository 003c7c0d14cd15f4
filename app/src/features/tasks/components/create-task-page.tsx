//! /leaders/tasks/create: step 1 of a new task — its title and the template it follows.
//! Create opens the task. Past the Basic plan's weekly limit the server's message shows
//! with an "Upgrade to Pro" action.

import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorCode, errorMessage } from '@/lib/rpc'
import { UpgradeCall } from '@/components/upgrade-call'

import { createTaskSchema, useCreateTask, type CreateTaskValues } from '../api/create-task'
import { useTemplateChoices } from '../api/template-choices'

export function CreateTaskPage() {
  const navigate = useNavigate()
  const { toast } = useToast()
  const templates = useTemplateChoices()
  const create = useCreateTask()
  const [limit, setLimit] = useState<string | null>(null)
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CreateTaskValues>({ resolver: zodResolver(createTaskSchema), defaultValues: { title: '', templateId: '' } })

  const onSubmit = handleSubmit(async (values) => {
    setLimit(null)
    try {
      const { id } = await create.mutateAsync({ title: values.title.trim(), templateId: values.templateId })
      navigate(`/leaders/tasks/${id}/edit`)
    } catch (error) {
      const code = errorCode(error)
      if (code === 'FORBIDDEN') setLimit(errorMessage(error))
      else if (code === 'NOT_FOUND') setError('templateId', { message: errorMessage(error) }, { shouldFocus: true })
      else if (!setServerErrors(error, setError, ['title', 'templateId'])) toast(failureToast(error))
    }
  })

  return (
    <div className="space-y-6">
      <div>
        <Link to="/leaders/tasks" className="text-sm text-primary underline-offset-4 hover:underline">
          Back to tasks
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">New task</h1>
        <p className="mt-1 text-sm text-muted-foreground">Give the task a title and choose the template it follows.</p>
      </div>
      {limit && (
        <Alert tone="info">
          <p>{limit}</p>
          <div className="mt-3">
            <UpgradeCall />
          </div>
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate className="space-y-5" data-tour="task-step-1">
        <FormField label="Title" error={errors.title?.message}>
          <Input {...register('title')} autoComplete="off" />
        </FormField>
        <fieldset className="space-y-2" aria-describedby={errors.templateId ? 'template-error' : undefined}>
          <legend className="text-sm font-medium">Template</legend>
          {templates.isError ? (
            <Alert>{errorMessage(templates.error)}</Alert>
          ) : !templates.data ? (
            <p role="status">Loading the templates…</p>
          ) : templates.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">There are no templates you can use yet. Ask an administrator to make one.</p>
          ) : (
            <div className="space-y-2">
              {templates.data.map((template) => (
                <label
                  key={template.id}
                  className="flex cursor-pointer items-center gap-3 rounded-md border border-border p-3 text-sm has-[:checked]:border-primary has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-ring"
                >
                  <input type="radio" value={template.id} className="size-4 accent-primary" {...register('templateId')} />
                  <span className="flex-1 font-medium">{template.title}</span>
                  <span className="text-muted-foreground">
                    {template.questionCount === 1 ? '1 question' : `${template.questionCount} questions`}
                  </span>
                </label>
              ))}
            </div>
          )}
          {errors.templateId && (
            <p id="template-error" className="text-sm text-destructive">
              {errors.templateId.message}
            </p>
          )}
        </fieldset>
        <Button type="submit" disabled={isSubmitting}>
          Create
        </Button>
      </form>
    </div>
  )
}
