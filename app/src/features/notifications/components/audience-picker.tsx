//! Who a notification goes to: classes, year groups, form groups and individual pupils of
//! the caller's school (the union of everything chosen), with the live recipient count.

import { useId, useState } from 'react'
import type { UseFormRegister } from 'react-hook-form'

import { Input } from '@/components/ui/input'
import type { NotificationFilters } from '@/generated/rpc-types'
import { errorMessage } from '@/lib/rpc'
import { usePupilWord } from '@/lib/pupil-word'

import { useRecipientCount } from '../api/count-recipients'
import type { EditorValues } from '../api/create-notification'
import { useAudienceOptions } from '../api/filter-options'

function Group({
  legend,
  name,
  options,
  register,
}: {
  legend: string
  name: `filters.${keyof NotificationFilters}`
  options: { id: string; name: string; pupils: number }[]
  register: UseFormRegister<EditorValues>
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{legend}</legend>
      {options.length === 0 && <p className="text-sm text-muted-foreground">None yet.</p>}
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        {options.map((option) => (
          <label key={option.id} className="flex items-center gap-2 text-sm">
            <input type="checkbox" value={option.id} className="size-4 accent-primary" {...register(name)} />
            {option.name} <span className="text-muted-foreground">({option.pupils})</span>
          </label>
        ))}
      </div>
    </fieldset>
  )
}

export function AudiencePicker({
  register,
  filters,
  error,
}: {
  register: UseFormRegister<EditorValues>
  filters: NotificationFilters
  error?: string
}) {
  const options = useAudienceOptions()
  const count = useRecipientCount(filters)
  const [search, setSearch] = useState('')
  const searchId = useId()
  const errorId = useId()
  const word = usePupilWord()
  const needle = search.trim().toLowerCase()
  const pupils = count.data?.pupils
  // The pupils chosen one by one, named above the list: the list scrolls, and a draft from
  // the AI assistant arrives with its pupils already chosen.
  const chosen = Array.isArray(filters.students) ? filters.students : []
  const chosenNames = (options.data?.students ?? []).filter((pupil) => chosen.includes(pupil.id)).map((pupil) => pupil.name)

  return (
    <section aria-labelledby="audience-heading" aria-describedby={error ? errorId : undefined} className="space-y-4 rounded-lg border border-border p-5">
      <h2 id="audience-heading" className="text-lg font-semibold">
        Recipients
      </h2>
      {options.isError && <p className="text-sm text-destructive">{errorMessage(options.error)}</p>}
      {options.data && (
        <>
          <Group legend="Classes" name="filters.classes" options={options.data.classes} register={register} />
          <Group legend="Year groups" name="filters.yearGroups" options={options.data.yearGroups} register={register} />
          <Group legend="Form groups" name="filters.formGroups" options={options.data.formGroups} register={register} />
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium">{word.Many}</legend>
            {chosenNames.length > 0 && (
              <p className="text-sm">
                <span className="font-medium">Selected ({chosenNames.length}):</span> {chosenNames.join(', ')}
              </p>
            )}
            <div className="w-72 space-y-1.5">
              <label htmlFor={searchId} className="text-sm">
                Find {word.many}
              </label>
              <Input id={searchId} type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
            </div>
            <div className="grid max-h-64 gap-1 overflow-y-auto sm:grid-cols-2 lg:grid-cols-3">
              {options.data.students.map((pupil) => {
                const visible = !needle || pupil.name.toLowerCase().includes(needle) || chosen.includes(pupil.id)
                const group = [pupil.yearGroup, pupil.formGroup].filter(Boolean).join(', ')
                return (
                  <label key={pupil.id} hidden={!visible} className="flex items-center gap-2 text-sm">
                    <input type="checkbox" value={pupil.id} className="size-4 accent-primary" {...register('filters.students')} />
                    {pupil.name}
                    {group && <span className="text-muted-foreground">({group})</span>}
                  </label>
                )
              })}
            </div>
          </fieldset>
        </>
      )}
      <p role="status" aria-live="polite" className="font-medium">
        {pupils === undefined
          ? 'Counting recipients…'
          : pupils === 1
            ? `1 ${word.one} will receive this.`
            : `${pupils} ${word.many} will receive this.`}
      </p>
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </section>
  )
}
