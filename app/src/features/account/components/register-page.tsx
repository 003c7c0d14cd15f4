//! /account/register: the registrant (forename, surname, e-mail, password) and their new
//! organisation (name, postcode, school or business); the answer is neutral. Confirming the
//! e-mail creates the organisation with the registrant as its admin (docs/organisations.md).

import { useState } from 'react'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { getCore } from '@/lib/core'
import { setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'

import { registerSchema, useRegister, type RegisterValues } from '../api/register'
import { AccountFrame } from './account-frame'

export const REGISTERED =
  'Check your e-mail to confirm your address. Confirming it creates your organisation, and you can then sign in as its administrator.'

const FIELDS = ['forename', 'surname', 'email', 'password', 'organisationName', 'postcode', 'orgType'] as const

export function RegisterPage() {
  const [done, setDone] = useState(false)
  const [formError, setFormError] = useState<string>()
  const registerAccount = useRegister()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RegisterValues>({
    resolver: zodResolver(registerSchema),
    defaultValues: { forename: '', surname: '', email: '', password: '', organisationName: '', postcode: '', orgType: 'SCHOOL' },
  })

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined)
    const rule = await getCore().passwordError(values.password)
    if (rule) return setError('password', { message: rule })
    try {
      await registerAccount.mutateAsync({
        forename: values.forename.trim(),
        surname: values.surname.trim(),
        email: values.email.trim(),
        password: values.password,
        organisationName: values.organisationName.trim(),
        postcode: values.postcode.trim(),
        orgType: values.orgType,
      })
      setDone(true)
    } catch (error) {
      if (!setServerErrors(error, setError, FIELDS)) setFormError(errorMessage(error))
    }
  })

  return (
    <AccountFrame title="Register" intro="Create an account for Voicemark and your school or organisation.">
      {done ? (
        <Alert tone="success">{REGISTERED}</Alert>
      ) : (
        <>
          {formError && <Alert>{formError}</Alert>}
          <form onSubmit={onSubmit} noValidate className="space-y-4">
            <FormField label="Forename" error={errors.forename?.message}>
              <Input autoComplete="given-name" {...register('forename')} />
            </FormField>
            <FormField label="Surname" error={errors.surname?.message}>
              <Input autoComplete="family-name" {...register('surname')} />
            </FormField>
            <FormField label="Email" error={errors.email?.message}>
              <Input type="email" autoComplete="email" {...register('email')} />
            </FormField>
            <FormField
              label="Password"
              error={errors.password?.message}
              hint="At least 8 characters, with a number, an uppercase and a lowercase letter."
            >
              <Input type="password" autoComplete="new-password" {...register('password')} />
            </FormField>
            <fieldset className="space-y-4">
              <legend className="text-sm font-medium">Your organisation</legend>
              <FormField label="Organisation name" error={errors.organisationName?.message}>
                <Input autoComplete="organization" {...register('organisationName')} />
              </FormField>
              <FormField label="Postcode" error={errors.postcode?.message}>
                <Input autoComplete="postal-code" {...register('postcode')} />
              </FormField>
              <FormField label="Type" error={errors.orgType?.message}>
                <Select {...register('orgType')}>
                  <option value="SCHOOL">School</option>
                  <option value="BUSINESS">Business</option>
                </Select>
              </FormField>
            </fieldset>
            <Button type="submit" className="w-full" disabled={isSubmitting}>
              Register
            </Button>
          </form>
        </>
      )}
    </AccountFrame>
  )
}
