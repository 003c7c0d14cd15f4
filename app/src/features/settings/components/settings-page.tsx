//! /settings and /leaders/settings: name, password and the user's own e-mail preferences.

import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect } from 'react'
import { useForm } from 'react-hook-form'

import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { LanguageSelect } from '@/components/language-select'
import { getCore } from '@/lib/core'
import type { EmailPreferences, UserSettings } from '@/generated/rpc-types'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'

import { changePasswordSchema, useChangePassword, type ChangePasswordValues } from '../api/change-password'
import { emailPreferencesSchema, useUpdateEmailPreferences } from '../api/update-email-preferences'
import { profileSchema, useUpdateProfile, type ProfileValues } from '../api/update-profile'
import { useUserSettings } from '../api/user-settings'

const FREQUENCIES: ReadonlyArray<readonly [EmailPreferences['frequency'], string]> = [
  ['IMMEDIATELY', 'Immediately'],
  ['DAILY', 'Daily'],
  ['WEEKLY', 'Weekly'],
]

function ProfileForm({ settings }: { settings: UserSettings }) {
  const { toast } = useToast()
  const updateProfile = useUpdateProfile()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: { forename: settings.forename, surname: settings.surname },
  })
  useEffect(() => reset({ forename: settings.forename, surname: settings.surname }), [settings, reset])

  const onSubmit = handleSubmit(async (values) => {
    try {
      await updateProfile.mutateAsync({ forename: values.forename.trim(), surname: values.surname.trim() })
      toast({ title: 'Name saved.', tone: 'success' })
    } catch (error) {
      if (!setServerErrors(error, setError, ['forename', 'surname'])) toast(failureToast(error))
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Forename" error={errors.forename?.message}>
          <Input autoComplete="given-name" {...register('forename')} />
        </FormField>
        <FormField label="Surname" error={errors.surname?.message}>
          <Input autoComplete="family-name" {...register('surname')} />
        </FormField>
      </div>
      <p className="text-sm text-muted-foreground">E-mail address: {settings.email}</p>
      <Button type="submit" disabled={isSubmitting}>
        Save name
      </Button>
    </form>
  )
}

function PasswordForm() {
  const { toast } = useToast()
  const changePassword = useChangePassword()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirm: '' },
  })

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    const rule = await getCore().passwordError(newPassword)
    if (rule) return setError('newPassword', { message: rule })
    try {
      await changePassword.mutateAsync({ currentPassword, newPassword })
      reset()
      toast({ title: 'Password changed.', tone: 'success' })
    } catch (error) {
      if (!setServerErrors(error, setError, ['currentPassword', 'newPassword'])) toast(failureToast(error))
    }
  })

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormField label="Current password" error={errors.currentPassword?.message}>
        <Input type="password" autoComplete="current-password" {...register('currentPassword')} />
      </FormField>
      <FormField
        label="New password"
        error={errors.newPassword?.message}
        hint="At least 8 characters, with a number, an uppercase and a lowercase letter."
      >
        <Input type="password" autoComplete="new-password" {...register('newPassword')} />
      </FormField>
      <FormField label="Confirm new password" error={errors.confirm?.message}>
        <Input type="password" autoComplete="new-password" {...register('confirm')} />
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        Change password
      </Button>
    </form>
  )
}

function PreferencesForm({ preferences }: { preferences: EmailPreferences }) {
  const { toast } = useToast()
  const updatePreferences = useUpdateEmailPreferences()
  const {
    register,
    handleSubmit,
    reset,
    formState: { isSubmitting },
  } = useForm<EmailPreferences>({ resolver: zodResolver(emailPreferencesSchema), defaultValues: preferences })
  useEffect(() => reset(preferences), [preferences, reset])

  const onSubmit = handleSubmit(async (values) => {
    try {
      await updatePreferences.mutateAsync(values)
      toast({ title: 'E-mail preferences saved.', tone: 'success' })
    } catch (error) {
      toast(failureToast(error))
    }
  })

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
          <LanguageSelect current={preferences.language} {...register('language')} />
        </FormField>
      </div>
      <Button type="submit" disabled={isSubmitting}>
        Save preferences
      </Button>
    </form>
  )
}

export function SettingsPage() {
  const settings = useUserSettings()
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
