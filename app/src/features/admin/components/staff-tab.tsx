//! Manage School › Staff: add and edit teachers and admins. New staff get no password: they
//! choose one through "Forgot password" or sign in with an e-mail link.

import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { Staff } from '@/generated/rpc-types'
import { setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'
import { userStatusLabel, userStatusTone } from '@/lib/user-status'
import { CursorPager, useCursorPages } from '@/components/cursor-pager'
import { Cell, DataTable } from '@/components/data-table'
import { Section } from '@/components/section'

import { useClasses } from '../api/list-groups'
import { useStaff } from '../api/list-staff'
import { staffSchema, useSaveStaff, type StaffValues } from '../api/save-staff'

const FIELDS = ['forename', 'surname', 'email', 'role', 'classIds', 'activated', 'disabled'] as const
const ROLE_LABELS: Record<string, string> = {
  TEACHER: 'Teacher',
  ADMIN: 'Admin',
  SUPERADMIN: 'Superadmin / provider staff',
  ORG_ADMIN: 'Organisation Admin',
  MAT_USER: 'MAT User',
}

function StaffForm({ staff, onDone }: { staff?: Staff; onDone: () => void }) {
  const { toast } = useToast()
  const save = useSaveStaff()
  const classes = useClasses()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<StaffValues>({
    resolver: zodResolver(staffSchema),
    defaultValues: {
      forename: staff?.forename ?? '',
      surname: staff?.surname ?? '',
      email: staff?.email ?? '',
      role: staff?.role ?? 'TEACHER',
      classIds: staff?.classIds ?? [],
      activated: staff?.activated ?? true,
      disabled: staff?.disabled ?? false,
    },
  })

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: staff?.id ?? null, ...values })
      toast({ title: staff ? 'Staff member saved.' : 'Staff member added.', tone: 'success' })
      onDone()
    } catch (error) {
      // A refusal no field explains (no free seat, a role managed elsewhere) stays in the
      // form beside its button, so the admin can read it and choose what to do.
      if (!setServerErrors(error, setError, FIELDS)) setError('root', { message: errorMessage(error) })
    }
  })

  return (
    <Section title={staff ? `Edit ${staff.forename} ${staff.surname}` : 'Add a member of staff'}>
      {!staff && (
        <p className="text-sm text-muted-foreground">
          New staff have no password: they choose one with “Forgot password” on the sign-in page, or sign in with an e-mail
          link.
        </p>
      )}
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Forename" error={errors.forename?.message}>
            <Input {...register('forename')} />
          </FormField>
          <FormField label="Surname" error={errors.surname?.message}>
            <Input {...register('surname')} />
          </FormField>
          <FormField label="E-mail" error={errors.email?.message}>
            <Input type="email" {...register('email')} />
          </FormField>
          <FormField label="Role" error={errors.role?.message}>
            <Select {...register('role')}>
              <option value="TEACHER">Teacher</option>
              <option value="ADMIN">Admin</option>
            </Select>
          </FormField>
        </div>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Classes</legend>
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {classes.data?.map((group) => (
              <label key={group.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" value={group.id} className="size-4 accent-primary" {...register('classIds')} />
                {group.name}
              </label>
            ))}
          </div>
          {errors.classIds && <p className="text-sm text-destructive">{errors.classIds.message}</p>}
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Account</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" {...register('activated')} />
            Activated
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" className="size-4 accent-primary" {...register('disabled')} />
            Disabled
          </label>
          {errors.disabled && <p className="text-sm text-destructive">{errors.disabled.message}</p>}
        </fieldset>
        {errors.root && <Alert>{errors.root.message}</Alert>}
        <div className="flex gap-2">
          <Button type="submit" disabled={isSubmitting}>
            {staff ? 'Save staff member' : 'Add staff member'}
          </Button>
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </Section>
  )
}

export function StaffTab() {
  const [search, setSearch] = useState('')
  const pages = useCursorPages()
  const staff = useStaff(search, pages.cursor)
  const [editing, setEditing] = useState<Staff | 'new' | null>(null)
  return (
    <div className="space-y-6">
      {editing ? (
        <StaffForm key={editing === 'new' ? 'new' : editing.id} staff={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
      ) : (
        <Button onClick={() => setEditing('new')}>Add staff member</Button>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-72 max-w-full">
          <FormField label="Search staff">
            <Input
              type="search"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value)
                pages.reset()
              }}
            />
          </FormField>
        </div>
        {staff.data && (
          <p className="pb-2 text-sm text-muted-foreground" role="status">
            {staff.data.total} {staff.data.total === 1 ? 'member of staff' : 'members of staff'}
          </p>
        )}
      </div>
      {staff.isError && <Alert>{errorMessage(staff.error)}</Alert>}
      <DataTable caption="Staff" headers={['Name', 'E-mail', 'Role', 'Status', '']}>
        {staff.data?.staff.map((member) => (
          <tr key={member.id}>
            <Cell>
              {member.forename} {member.surname}
            </Cell>
            <Cell>{member.email}</Cell>
            <Cell>{ROLE_LABELS[member.role] ?? member.role}</Cell>
            <Cell>
              <Badge variant={userStatusTone(member.status)}>{userStatusLabel(member.status)}</Badge>
            </Cell>
            <Cell>
              {(member.role === 'TEACHER' || member.role === 'ADMIN') && (
                <Button size="sm" variant="outline" onClick={() => setEditing(member)} aria-label={`Edit ${member.forename} ${member.surname}`}>
                  Edit
                </Button>
              )}
            </Cell>
          </tr>
        ))}
      </DataTable>
      {staff.data && (
        <CursorPager
          pages={pages}
          total={staff.data.total}
          pageSize={staff.data.pageSize}
          nextCursor={staff.isPlaceholderData ? null : staff.data.nextCursor}
        />
      )}
    </div>
  )
}
