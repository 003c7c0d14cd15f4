//! Manage School › Settings: the school's name, postcode, type, parent e-mail settings,
//! whether the AI assistant keeps its history and whether e-mails count opens by image.

import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useId } from 'react'
import { useForm, type UseFormRegisterReturn } from 'react-hook-form'

import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { Section } from '@/components/section'
import { failureToast, setServerErrors } from '@/lib/form-errors'

import { schoolSettingsSchema, useSaveSchoolSettings, type SchoolSettingsValues } from '../api/save-school-settings'
import { useSchoolSettings } from '../api/school-settings'

/** A checkbox of the form with a line under it that says what it does. */
function CheckboxWithHint({ field, label, hint }: { field: UseFormRegisterReturn; label: string; hint: string }) {
  const hintId = useId()
  return (
    <div className="space-y-1">
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4 accent-primary" aria-describedby={hintId} {...field} />
        {label}
      </label>
      <p id={hintId} className="text-xs text-muted-foreground">
        {hint}
      </p>
    </div>
  )
}

export function SettingsTab() {
  const settings = useSchoolSettings()
  const { toast } = useToast()
  const save = useSaveSchoolSettings()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<SchoolSettingsValues>({ resolver: zodResolver(schoolSettingsSchema) })
  useEffect(() => {
    if (settings.data) reset({ ...settings.data, postcode: settings.data.postcode ?? '' })
  }, [settings.data, reset])

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ ...values, postcode: values.postcode || null })
      toast({ title: 'Settings saved.', tone: 'success' })
    } catch (error) {
      if (!setServerErrors(error, setError, ['name', 'postcode', 'type'])) toast(failureToast(error))
    }
  })

  if (!settings.data) return <p role="status">Loading the settings…</p>
  return (
    <Section title="School settings">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Name" error={errors.name?.message}>
            <Input {...register('name')} />
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
        <CheckboxWithHint
          field={register('assistantHistory')}
          label="Keep the AI assistant's history"
          hint="When off, questions to the AI assistant and its answers are not kept, and the history already kept for your school is deleted."
        />
        <CheckboxWithHint
          field={register('reachPixel')}
          label="Also count e-mails as opened when their images load"
          hint="Off unless you turn it on. An e-mail is always counted as opened when someone follows its link. With this on, each e-mail also carries an invisible image: it tells you when a family reads a message, many mail apps block it, and mail scanners can load it without anyone reading, so the count it adds is rough."
        />
        <Button type="submit" disabled={isSubmitting}>
          Save settings
        </Button>
      </form>
    </Section>
  )
}
