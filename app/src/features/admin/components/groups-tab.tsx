//! Manage School › Classes, Year groups and Form groups: list with pupil counts, add, rename.

import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { Group } from '@/generated/rpc-types'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'
import { Cell, DataTable } from '@/components/data-table'
import { Section } from '@/components/section'
import { usePupilWord } from '@/lib/pupil-word'

import { useClasses, useFormGroups, useYearGroups } from '../api/list-groups'
import { groupSchema, useSaveGroup, type GroupKind, type GroupValues } from '../api/save-group'

type Kind = GroupKind

const TEXT: Record<Kind, { one: string; many: string; note?: string }> = {
  class: { one: 'class', many: 'Classes' },
  yearGroup: {
    one: 'year group',
    many: 'Year groups',
    note: 'Year groups are shared by every school; the counts are your pupils.',
  },
  formGroup: { one: 'form group', many: 'Form groups' },
}

function GroupForm({ kind, group, onDone }: { kind: Kind; group?: Group; onDone: () => void }) {
  const { toast } = useToast()
  const save = useSaveGroup(kind)
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<GroupValues>({
    resolver: zodResolver(groupSchema),
    defaultValues: { name: group?.name ?? '' },
  })
  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      await save.mutateAsync({ id: group?.id ?? null, name })
      toast({ title: 'Saved.', tone: 'success' })
      onDone()
    } catch (error) {
      if (!setServerErrors(error, setError, ['name'])) toast(failureToast(error))
    }
  })
  const text = TEXT[kind]
  return (
    <Section title={group ? `Rename ${group.name}` : `Add a ${text.one}`}>
      <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-start gap-3">
        <div className="w-72">
          <FormField label="Name" error={errors.name?.message}>
            <Input {...register('name')} />
          </FormField>
        </div>
        <div className="flex gap-2 pt-6">
          <Button type="submit" disabled={isSubmitting}>
            Save
          </Button>
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </Section>
  )
}

export function GroupsTab({ kind }: { kind: Kind }) {
  const word = usePupilWord()
  const classes = useClasses()
  const yearGroups = useYearGroups()
  const formGroups = useFormGroups()
  const list = kind === 'class' ? classes : kind === 'yearGroup' ? yearGroups : formGroups
  const [editing, setEditing] = useState<Group | 'new' | null>(null)
  const text = TEXT[kind]
  return (
    <div className="space-y-6">
      {text.note && <p className="text-sm text-muted-foreground">{text.note.replace('pupils', word.many)}</p>}
      {editing ? (
        <GroupForm
          key={editing === 'new' ? 'new' : editing.id}
          kind={kind}
          group={editing === 'new' ? undefined : editing}
          onDone={() => setEditing(null)}
        />
      ) : (
        <Button onClick={() => setEditing('new')}>Add {text.one}</Button>
      )}
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      <DataTable caption={text.many} headers={['Name', word.Many, '']}>
        {list.data?.map((group) => (
          <tr key={group.id}>
            <Cell>{group.name}</Cell>
            <Cell>{group.pupils}</Cell>
            <Cell>
              <Button size="sm" variant="outline" onClick={() => setEditing(group)} aria-label={`Rename ${group.name}`}>
                Rename
              </Button>
            </Cell>
          </tr>
        ))}
      </DataTable>
    </div>
  )
}
