//! /account/reset?token=: a new password, checked against the core's rule before sending.

import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useSearchParams } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { getCore } from '@/lib/core'
import { errorMessage, fieldErrors, rpcMutation } from '@/lib/rpc'

import { AccountFrame } from './account-frame'

export const LINK_INVALID = 'This link is invalid or has expired.'

interface ResetValues {
  password: string
  confirm: string
}

export function ResetPasswordPage() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [done, setDone] = useState(false)
  const [formError, setFormError] = useState<string>()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetValues>({ defaultValues: { password: '', confirm: '' } })

  const onSubmit = handleSubmit(async ({ password, confirm }) => {
    setFormError(undefined)
    const rule = await getCore().passwordError(password)
    if (rule) return setError('password', { message: rule })
    if (password !== confirm) return setError('confirm', { message: 'The passwords do not match.' })
    try {
      await rpcMutation('account.resetPassword', { token, password })
      setDone(true)
    } catch (error) {
      const fields = fieldErrors(error)
      if (fields.password) setError('password', { message: fields.password })
      if (fields.token) setFormError(LINK_INVALID)
      else if (!fields.password) setFormError(errorMessage(error))
    }
  })

  if (!token) {
    return (
      <AccountFrame title="Reset password">
        <Alert>{LINK_INVALID}</Alert>
      </AccountFrame>
    )
  }

  return (
    <AccountFrame title="Reset password" intro="Choose a new password for your account.">
      {done ? (
        <Alert tone="success">
          Your password has been changed.{' '}
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
              <Input type="password" autoComplete="new-password" {...register('password', { required: 'Enter a new password.' })} />
            </FormField>
            <FormField label="Confirm new password" error={errors.confirm?.message}>
              <Input type="password" autoComplete="new-password" {...register('confirm', { required: 'Enter the password again.' })} />
            </FormField>
            <Button type="submit" className="w-full" disabled={isSubmitting}>
              Reset password
            </Button>
          </form>
        </>
      )}
    </AccountFrame>
  )
}
