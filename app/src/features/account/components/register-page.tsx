//! /account/register: forename, surname, e-mail and password; the answer is neutral.

import { useState } from 'react'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { getCore } from '@/lib/core'
import { errorMessage, fieldErrors, rpcMutation } from '@/lib/rpc'

import { AccountFrame } from './account-frame'

export const REGISTERED =
  'Check your e-mail to confirm your address. Your school administrator will then activate your account.'

interface RegisterValues {
  forename: string
  surname: string
  email: string
  password: string
}

const FIELDS = ['forename', 'surname', 'email', 'password'] as const

export function RegisterPage() {
  const [done, setDone] = useState(false)
  const [formError, setFormError] = useState<string>()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RegisterValues>({ defaultValues: { forename: '', surname: '', email: '', password: '' } })

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined)
    const rule = await getCore().passwordError(values.password)
    if (rule) return setError('password', { message: rule })
    try {
      await rpcMutation('account.register', {
        forename: values.forename.trim(),
        surname: values.surname.trim(),
        email: values.email.trim(),
        password: values.password,
      })
      setDone(true)
    } catch (error) {
      const fields = fieldErrors(error)
      let shown = false
      for (const field of FIELDS) {
        if (fields[field]) {
          setError(field, { message: fields[field] })
          shown = true
        }
      }
      if (!shown) setFormError(errorMessage(error))
    }
  })

  return (
    <AccountFrame title="Register" intro="Create an account for Voicemark.">
      {done ? (
        <Alert tone="success">{REGISTERED}</Alert>
      ) : (
        <>
          {formError && <Alert>{formError}</Alert>}
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <FormField label="Forename" error={errors.forename?.message}>
              <Input autoComplete="given-name" {...register('forename', { required: 'Enter your forename.' })} />
            </FormField>
            <FormField label="Surname" error={errors.surname?.message}>
              <Input autoComplete="family-name" {...register('surname', { required: 'Enter your surname.' })} />
            </FormField>
            <FormField label="Email" error={errors.email?.message}>
              <Input type="email" autoComplete="email" {...register('email', { required: 'Enter your e-mail address.' })} />
            </FormField>
            <FormField
              label="Password"
              error={errors.password?.message}
              hint="At least 8 characters, with a number, an uppercase and a lowercase letter."
            >
              <Input type="password" autoComplete="new-password" {...register('password', { required: 'Enter a password.' })} />
            </FormField>
            <Button type="submit" className="w-full" disabled={isSubmitting}>
              Register
            </Button>
          </form>
        </>
      )}
    </AccountFrame>
  )
}
