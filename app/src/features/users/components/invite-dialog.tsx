//! The invite dialog: forename, surname, e-mail and role (the roles the caller may give); a
//! superadmin also picks the school. The person gets an e-mail with a link to set a password.

import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { SchoolOption } from '@/generated/rpc-types'
import type { UserRole } from '@/lib/auth-client'
import { setServerErrors } from '@/lib/form-errors'
import { assignableRoles, roleLabeller, type RoleLabelArea } from '@/lib/roles'
import { errorMessage } from '@/lib/rpc'

import { inviteSchema, useInviteUser, type InviteValues } from '../api/users'

const FIELDS = ['forename', 'surname', 'email', 'role', 'schoolId'] as const

export function InviteDialog({
  open,
  onOpenChange,
  callerRole,
  schools,
  roleLabels = 'leaders',
}: {
  open: boolean
  onOpenChange(open: boolean): void
  callerRole: UserRole
  /** The superadmin's choice of school; absent: the caller's own school. */
  schools?: SchoolOption[]
  /** Whose role labels: the main area's (/users) or the leaders' (Manage Users). */
  roleLabels?: RoleLabelArea
}) {
  const roleLabel = roleLabeller(roleLabels)
  const { toast } = useToast()
  const invite = useInviteUser()
  const [formError, setFormError] = useState<string>()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<InviteValues>({
    resolver: zodResolver(inviteSchema),
    defaultValues: { forename: '', surname: '', email: '', role: 'TEACHER', schoolId: '' },
  })

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined)
    if (schools && !values.schoolId) return setError('schoolId', { message: 'Choose a school.' })
    try {
      const user = await invite.mutateAsync({ ...values, schoolId: values.schoolId || null })
      toast({ title: `Invitation sent to ${user.email}.`, tone: 'success' })
      reset()
      onOpenChange(false)
    } catch (error) {
      if (!setServerErrors(error, setError, FIELDS)) setFormError(errorMessage(error))
    }
  })

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setFormError(undefined)
        onOpenChange(next)
      }}
    >
      <DialogContent>
        <DialogTitle className="text-lg font-semibold">Invite a user</DialogTitle>
        <DialogDescription className="mb-4 text-sm text-muted-foreground">
          They get an e-mail with a link to set their password; the link works once, for 7 days.
        </DialogDescription>
        {formError && (
          <div className="mb-4">
            <Alert>{formError}</Alert>
          </div>
        )}
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Forename" error={errors.forename?.message}>
              <Input {...register('forename')} />
            </FormField>
            <FormField label="Surname" error={errors.surname?.message}>
              <Input {...register('surname')} />
            </FormField>
          </div>
          <FormField label="E-mail" error={errors.email?.message}>
            <Input type="email" autoComplete="off" {...register('email')} />
          </FormField>
          <FormField label="Role" error={errors.role?.message}>
            <Select {...register('role')}>
              {assignableRoles(callerRole).map((role) => (
                <option key={role} value={role}>
                  {roleLabel(role)}
                </option>
              ))}
            </Select>
          </FormField>
          {schools && (
            <FormField label="School" error={errors.schoolId?.message}>
              <Select {...register('schoolId')}>
                <option value="">Choose a school</option>
                {schools.map((school) => (
                  <option key={school.id} value={school.id}>
                    {school.name}
                  </option>
                ))}
              </Select>
            </FormField>
          )}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              Send invitation
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  )
}
