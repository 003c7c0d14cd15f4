//! Manage School › Classes, Year groups and Form groups: list with pupil counts, add, rename.

import { useState } from 'react'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { Group } from '@/generated/rpc-types'
import { errorMessage, fieldErrors, rpcMutation } from '@/lib/rpc'

import { useClasses, useFormGroups, useRefreshAdmin, useYearGroups } from '../api/admin-queries'
import { Cell, DataTable } from '@/components/data-table'
import { Section } from '@/components/section'

type Kind = 'class' | 'yearGroup' | 'formGroup'

const TEXT: Record<Kind, { one: string; many: string; note?: string }> = {
  class: { one: 'class', many: 'Classes' },
  yearGroup: {
    one: 'year group',
    many: 'Year groups',
    note: 'Year groups are shared by every school; the counts are your pupils.',
  },
  formGroup: { one: 'form group', many: 'Form groups' },
}

function save(kind: Kind, input: { id: string | null; name: string }) {
  if (kind === 'class') return rpcMutation('admin.saveClass', input)
  if (kind === 'yearGroup') return rpcMutation('admin.saveYearGroup', input)
  return rpcMutation('admin.saveFormGroup', input)
}

function GroupForm({ kind, group, onDone }: { kind: Kind; group?: Group; onDone: () => void }) {
  const { toast } = useToast()
  const refresh = useRefreshAdmin()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ defaultValues: { name: group?.name ?? '' } })
  const onSubmit = handleSubmit(async ({ name }) => {
    try {
      await save(kind, { id: group?.id ?? null, name })
      toast({ title: 'Saved.', tone: 'success' })
      await refresh()
      onDone()
    } catch (error) {
      const fields = fieldErrors(error)
      if (fields.name) setError('name', { message: fields.name })
      else toast({ title: 'Something went wrong', description: errorMessage(error), tone: 'error' })
    }
  })
  const text = TEXT[kind]
  return (
    <Section title={group ? `Rename ${group.name}` : `Add a ${text.one}`}>
      <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-start gap-3">
        <div className="w-72">
          <FormField label="Name" error={errors.name?.message}>
            <Input {...register('name', { required: 'Enter a name.' })} />
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
  const classes = useClasses()
  const yearGroups = useYearGroups()
  const formGroups = useFormGroups()
  const list = kind === 'class' ? classes : kind === 'yearGroup' ? yearGroups : formGroups
  const [editing, setEditing] = useState<Group | 'new' | null>(null)
  const text = TEXT[kind]
  return (
    <div className="space-y-6">
      {text.note && <p className="text-sm text-muted-foreground">{text.note}</p>}
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
      <DataTable caption={text.many} headers={['Name', 'Pupils', '']}>
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
