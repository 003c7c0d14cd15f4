//! /preferences/:token: the public page, linked from every e-mail, where a pupil or parent
//! chooses which e-mails they get, how often and in which language, without signing in.

import { useEffect, useState } from 'react'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useParams } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Select } from '@/components/ui/input'
import { LanguageSelect } from '@/components/language-select'
import { setServerErrors } from '@/lib/form-errors'
import { errorCode, errorMessage } from '@/lib/rpc'

import { usePreferences } from '../api/get-preferences'
import { preferencesSchema, useUpdatePreferences, type PreferencesValues } from '../api/update-preferences'

type Choices = PreferencesValues

const FREQUENCIES: ReadonlyArray<readonly [Choices['frequency'], string]> = [
  ['IMMEDIATELY', 'Immediately, one e-mail per message'],
  ['DAILY', 'Once a day, in a summary'],
  ['WEEKLY', 'Once a week, in a summary'],
]

export function PreferencesPage() {
  const { token = '' } = useParams()
  const preferences = usePreferences(token)

  return (
    <div className="mx-auto w-full max-w-md space-y-6">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">E-mail preferences</h1>
        {preferences.data && (
          <p className="text-muted-foreground">
            For <strong>{preferences.data.email}</strong>
          </p>
        )}
      </div>
      {preferences.isPending && <p role="status">Loading your preferences…</p>}
      {preferences.isError && (
        <Alert>
          {errorCode(preferences.error) === 'NOT_FOUND'
            ? 'This link is invalid.'
            : `Your preferences could not be loaded: ${errorMessage(preferences.error)}`}
        </Alert>
      )}
      {preferences.data && <PreferencesForm token={token} initial={preferences.data} />}
    </div>
  )
}

function PreferencesForm({ token, initial }: { token: string; initial: Choices }) {
  const update = useUpdatePreferences()
  const [saved, setSaved] = useState(false)
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting, errors, isDirty },
  } = useForm<Choices>({
    resolver: zodResolver(preferencesSchema),
    defaultValues: { general: initial.general, assignment: initial.assignment, frequency: initial.frequency, language: initial.language },
  })
  useEffect(() => {
    if (isDirty) setSaved(false)
  }, [isDirty])

  const onSubmit = handleSubmit(async (values) => {
    setSaved(false)
    try {
      const result = await update.mutateAsync({ token, ...values })
      reset({ general: result.general, assignment: result.assignment, frequency: result.frequency, language: result.language })
      setSaved(true)
    } catch (error) {
      if (!setServerErrors(error, setError, ['general', 'assignment', 'frequency', 'language']))
        setError('root', { message: errorMessage(error) })
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      {saved && <Alert tone="success">Your preferences are saved.</Alert>}
      {errors.root?.message && <Alert>{errors.root.message}</Alert>}
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Send me e-mails about</legend>
        <label className="flex items-center gap-3 text-sm">
          <input type="checkbox" role="switch" className="size-4 accent-primary" {...register('general')} />
          General messages
        </label>
        <label className="flex items-center gap-3 text-sm">
          <input type="checkbox" role="switch" className="size-4 accent-primary" {...register('assignment')} />
          Assignments and feedback
        </label>
      </fieldset>
      <FormField label="How often" error={errors.frequency?.message}>
        <Select {...register('frequency')}>
          {FREQUENCIES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField label="Language" error={errors.language?.message}>
        <LanguageSelect current={initial.language} {...register('language')} />
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        Save preferences
      </Button>
    </form>
  )
}
