//! Manage School › Settings: the school's name, postcode, type and parent e-mail settings.

import { useEffect } from 'react'
import { useForm } from 'react-hook-form'

import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { SchoolSettings } from '@/generated/rpc-types'
import { errorMessage, fieldErrors, rpcMutation } from '@/lib/rpc'

import { useRefreshAdmin, useSchoolSettings } from '../api/admin-queries'
import { Section } from '@/components/section'

interface SettingsValues extends Omit<SchoolSettings, 'postcode'> {
  postcode: string
}

export function SettingsTab() {
  const settings = useSchoolSettings()
  const { toast } = useToast()
  const refresh = useRefreshAdmin()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<SettingsValues>()
  useEffect(() => {
    if (settings.data) reset({ ...settings.data, postcode: settings.data.postcode ?? '' })
  }, [settings.data, reset])

  const onSubmit = handleSubmit(async (values) => {
    try {
      await rpcMutation('admin.saveSchoolSettings', { ...values, postcode: values.postcode || null })
      toast({ title: 'Settings saved.', tone: 'success' })
      await refresh()
    } catch (error) {
      const fields = fieldErrors(error)
      if (fields.name) setError('name', { message: fields.name })
      if (fields.postcode) setError('postcode', { message: fields.postcode })
      if (fields.type) setError('type', { message: fields.type })
      if (!fields.name && !fields.postcode && !fields.type)
        toast({ title: 'Something went wrong', description: errorMessage(error), tone: 'error' })
    }
  })

  if (!settings.data) return <p role="status">Loading the settings…</p>
  return (
    <Section title="School settings">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Name" error={errors.name?.message}>
            <Input {...register('name', { required: "Enter the school's name." })} />
          </FormField>
          <FormField label="Postcode" error={errors.postcode?.message}>
            <Input {...register('postcode')} />
          </FormField>
          <FormField label="Type" error={errors.type?.message}>
            <Select {...register('type')}>
              <option value="SCHOOL">School</option>
              <option value="BUSINESS">Business</option>
            </Select>
          </FormField>
          <FormField label="Parent e-mail frequency" hint="The default for parents who have not chosen their own.">
            <Select {...register('notificationsFrequency')}>
              <option value="IMMEDIATELY">Immediately</option>
              <option value="DAILY">Daily</option>
              <option value="WEEKLY">Weekly</option>
            </Select>
          </FormField>
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">E-mail parents about</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" {...register('notifyParentsGeneral')} />
            General messages
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" {...register('notifyParentsAssignment')} />
            Assignments
          </label>
        </fieldset>
        <Button type="submit" disabled={isSubmitting}>
          Save settings
        </Button>
      </form>
    </Section>
  )
}
