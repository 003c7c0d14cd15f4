//! /account/reset?token=: a new password, checked against the core's rule before sending.
//! With `&invite=1` (an invitation from Manage Users) the page is 'Set your password': the
//! same form, and the link also activates the account.

import { useState } from 'react'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { Link, useSearchParams } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { getCore } from '@/lib/core'
import { setServerErrors } from '@/lib/form-errors'
import { errorMessage, fieldErrors } from '@/lib/rpc'

import { resetPasswordSchema, useResetPassword, type ResetPasswordValues } from '../api/reset-password'
import { AccountFrame } from './account-frame'

export const LINK_INVALID = 'This link is invalid or has expired.'

export function ResetPasswordPage() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const invite = params.get('invite') === '1'
  const title = invite ? 'Set your password' : 'Reset password'
  const [done, setDone] = useState(false)
  const [formError, setFormError] = useState<string>()
  const resetPassword = useResetPassword()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { password: '', confirm: '' },
  })

  const onSubmit = handleSubmit(async ({ password }) => {
    setFormError(undefined)
    const rule = await getCore().passwordError(password)
    if (rule) return setError('password', { message: rule })
    try {
      await resetPassword.mutateAsync({ token, password })
      setDone(true)
    } catch (error) {
      const shown = setServerErrors(error, setError, ['password'])
      if (fieldErrors(error).token) setFormError(LINK_INVALID)
      else if (!shown) setFormError(errorMessage(error))
    }
  })

  if (!token) {
    return (
      <AccountFrame title={title}>
        <Alert>{LINK_INVALID}</Alert>
      </AccountFrame>
    )
  }

  return (
    <AccountFrame
      title={title}
      intro={invite ? 'Choose a password to activate your Voicemark account.' : 'Choose a new password for your account.'}
    >
      {done ? (
        <Alert tone="success">
          {invite ? 'Your password is set and your account is active.' : 'Your password has been changed.'}{' '}
          <Link to="/login" className="font-medium underline">
            Sign in
          </Link>
        </Alert>
      ) : (
        <>
          {formError && <Alert>{formError}</Alert>}
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <FormField
              label="New password"
              error={errors.password?.message}
              hint="At least 8 characters, with a number, an uppercase and a lowercase letter."
            >
              <Input type="password" autoComplete="new-password" {...register('password')} />
            </FormField>
            <FormField label="Confirm new password" error={errors.confirm?.message}>
              <Input type="password" autoComplete="new-password" {...register('confirm')} />
            </FormField>
            <Button type="submit" className="w-full" disabled={isSubmitting}>
              {invite ? 'Set password' : 'Reset password'}
            </Button>
          </form>
        </>
      )}
    </AccountFrame>
  )
}
