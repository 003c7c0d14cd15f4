//! /account/forgot: asks for a reset link; the answer is the same whether or not the
//! account exists, so the page reveals nothing about who has one.

import { useState } from 'react'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { setServerErrors } from '@/lib/form-errors'

import { requestPasswordResetSchema, useRequestPasswordReset, type RequestPasswordResetValues } from '../api/request-password-reset'
import { AccountFrame } from './account-frame'

export const FORGOT_SENT = 'If an account exists for that address, we have sent a link to reset the password.'

export function ForgotPasswordPage() {
  const [sent, setSent] = useState(false)
  const requestReset = useRequestPasswordReset()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RequestPasswordResetValues>({
    resolver: zodResolver(requestPasswordResetSchema),
    defaultValues: { email: '' },
  })

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await requestReset.mutateAsync({ email: email.trim() })
    } catch (error) {
      // A malformed address is worth saying; anything else gets the neutral answer.
      if (setServerErrors(error, setError, ['email'])) return
    }
    setSent(true)
  })

  return (
    <AccountFrame title="Forgot password" intro="Enter your e-mail address and we will send you a link to reset your password.">
      {sent ? (
        <Alert tone="success">{FORGOT_SENT}</Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <FormField label="Email" error={errors.email?.message}>
            <Input type="email" autoComplete="email" {...register('email')} />
          </FormField>
          <Button type="submit" className="w-full" disabled={isSubmitting}>
            Send reset link
          </Button>
        </form>
      )}
    </AccountFrame>
  )
}
