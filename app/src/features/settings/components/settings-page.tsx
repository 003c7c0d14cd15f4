//! /settings and /leaders/settings: name, password and the user's own e-mail preferences.

import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'

import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { getCore } from '@/lib/core'
import type { EmailPreferences, UserSettings } from '@/generated/rpc-types'
import { errorMessage, fieldErrors, rpcKey, rpcMutation, useRpcQuery } from '@/lib/rpc'
import { SESSION_KEY } from '@/lib/session'

/** The languages offered for e-mails (code → name); the server stores the code. */
export const LANGUAGES: ReadonlyArray<readonly [string, string]> = [
  ['en', 'English'],
  ['cy', 'Welsh'],
  ['fr', 'French'],
  ['es', 'Spanish'],
  ['de', 'German'],
  ['pl', 'Polish'],
  ['ur', 'Urdu'],
]

const FREQUENCIES: ReadonlyArray<readonly [EmailPreferences['frequency'], string]> = [
  ['IMMEDIATELY', 'Immediately'],
  ['DAILY', 'Daily'],
  ['WEEKLY', 'Weekly'],
]

function ProfileForm({ settings }: { settings: UserSettings }) {
  const { toast } = useToast()
  const queryClient = useQueryClient()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ defaultValues: { forename: settings.forename, surname: settings.surname } })
  useEffect(() => reset({ forename: settings.forename, surname: settings.surname }), [settings, reset])

  const onSubmit = handleSubmit(async (values) => {
    try {
      await rpcMutation('user.updateProfile', { forename: values.forename.trim(), surname: values.surname.trim() })
      toast({ title: 'Name saved.', tone: 'success' })
      void queryClient.invalidateQueries({ queryKey: rpcKey('user.settings') })
      void queryClient.invalidateQueries({ queryKey: SESSION_KEY })
    } catch (error) {
      const fields = fieldErrors(error)
      if (fields.forename) setError('forename', { message: fields.forename })
      if (fields.surname) setError('surname', { message: fields.surname })
      if (!fields.forename && !fields.surname) toast({ title: 'Something went wrong', description: errorMessage(error), tone: 'error' })
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Forename" error={errors.forename?.message}>
          <Input autoComplete="given-name" {...register('forename', { required: 'Enter your forename.' })} />
        </FormField>
        <FormField label="Surname" error={errors.surname?.message}>
          <Input autoComplete="family-name" {...register('surname', { required: 'Enter your surname.' })} />
        </FormField>
      </div>
      <p className="text-sm text-muted-foreground">E-mail address: {settings.email}</p>
      <Button type="submit" disabled={isSubmitting}>
        Save name
      </Button>
    </form>
  )
}

interface PasswordValues {
  currentPassword: string
  newPassword: string
  confirm: string
}

function PasswordForm() {
  const { toast } = useToast()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<PasswordValues>({ defaultValues: { currentPassword: '', newPassword: '', confirm: '' } })

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword, confirm }) => {
    const rule = await getCore().passwordError(newPassword)
    if (rule) return setError('newPassword', { message: rule })
    if (newPassword !== confirm) return setError('confirm', { message: 'The passwords do not match.' })
    try {
      await rpcMutation('user.changePassword', { currentPassword, newPassword })
      reset()
      toast({ title: 'Password changed.', tone: 'success' })
    } catch (error) {
      const fields = fieldErrors(error)
      if (fields.currentPassword) setError('currentPassword', { message: fields.currentPassword })
      if (fields.newPassword) setError('newPassword', { message: fields.newPassword })
      if (!fields.currentPassword && !fields.newPassword)
        toast({ title: 'Something went wrong', description: errorMessage(error), tone: 'error' })
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormField label="Current password" error={errors.currentPassword?.message}>
        <Input type="password" autoComplete="current-password" {...register('currentPassword', { required: 'Enter your current password.' })} />
      </FormField>
      <FormField
        label="New password"
        error={errors.newPassword?.message}
        hint="At least 8 characters, with a number, an uppercase and a lowercase letter."
      >
        <Input type="password" autoComplete="new-password" {...register('newPassword', { required: 'Enter a new password.' })} />
      </FormField>
      <FormField label="Confirm new password" error={errors.confirm?.message}>
        <Input type="password" autoComplete="new-password" {...register('confirm', { required: 'Enter the new password again.' })} />
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        Change password
      </Button>
    </form>
  )
}

function PreferencesForm({ preferences }: { preferences: EmailPreferences }) {
  const { toast } = useToast()
  const queryClient = useQueryClient()
  const {
    register,
    handleSubmit,
    reset,
    formState: { isSubmitting },
  } = useForm<EmailPreferences>({ defaultValues: preferences })
  useEffect(() => reset(preferences), [preferences, reset])

  const onSubmit = handleSubmit(async (values) => {
    try {
      await rpcMutation('user.updateEmailPreferences', values)
      toast({ title: 'E-mail preferences saved.', tone: 'success' })
      void queryClient.invalidateQueries({ queryKey: rpcKey('user.settings') })
    } catch (error) {
      toast({ title: 'Something went wrong', description: errorMessage(error), tone: 'error' })
    }
  })

  const languages = LANGUAGES.some(([code]) => code === preferences.language)
    ? LANGUAGES
    : [...LANGUAGES, [preferences.language, preferences.language] as const]

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium">Send me e-mails about</legend>
        <label className="flex items-center gap-3 text-sm">
          <input type="checkbox" role="switch" className="size-4 accent-primary" {...register('general')} />
          General messages
        </label>
        <label className="flex items-center gap-3 text-sm">
          <input type="checkbox" role="switch" className="size-4 accent-primary" {...register('assignment')} />
          Assignments
        </label>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Frequency">
          <Select {...register('frequency')}>
            {FREQUENCIES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Language">
          <Select {...register('language')}>
            {languages.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </FormField>
      </div>
      <Button type="submit" disabled={isSubmitting}>
        Save preferences
      </Button>
    </form>
  )
}

export function SettingsPage() {
  const settings = useRpcQuery('user.settings')
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold tracking-tight">Settings</h1>
      {settings.isError && <Alert>Your settings could not be loaded: {errorMessage(settings.error)}</Alert>}
      {settings.isPending && <p role="status">Loading your settings…</p>}
      {settings.data && (
        <>
          <Section title="Your name">
            <ProfileForm settings={settings.data} />
          </Section>
          <Section title="Password">
            <PasswordForm />
          </Section>
          <Section title="E-mail preferences">
            <PreferencesForm preferences={settings.data.emailPreferences} />
          </Section>
        </>
      )}
      {settings.isError && (
        <Section title="Password">
          <PasswordForm />
        </Section>
      )}
    </div>
  )
}
