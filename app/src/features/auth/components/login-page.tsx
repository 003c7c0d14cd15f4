//! /login: e-mail and password (or 'Sign in with Microsoft' when the server offers it), the
//! `?error=` message, then on to `callbackUrl` (same origin only), `/`, or `/leaders/tasks`
//! for users kept in the leaders area.

import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router'

import { PageTitle } from '@/components/page-title'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { requestEmailLink, signInWithCredentials } from '@/lib/auth-client'
import { afterSignInPath } from '@/lib/callback-url'
import { FIRST_FRAMES, SIGN_IN_COLUMN } from '@/lib/first-frame'
import { useSession } from '@/lib/session'
import { signInErrorMessage } from '@/lib/sign-in-errors'

import { useSignInProviders } from '../api/use-sign-in-providers'
import { useSupportAddress } from '../api/use-support-address'
import { MicrosoftSignIn } from './microsoft-sign-in'

export const LINK_SENT = 'If an account exists for that address, we have sent a sign-in link to it.'

interface LoginValues {
  email: string
  password: string
}

export function LoginPage() {
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const { status, session, provisional, refresh } = useSession()
  const callbackUrl = params.get('callbackUrl')
  // The error's code; its text is made at render time, when the support address is known.
  const [error, setError] = useState<string | undefined>(() => params.get('error') ?? undefined)
  const supportEmail = useSupportAddress()
  const signInProviders = useSignInProviders()
  const microsoft = signInProviders.providers?.['azure-ad']
  const [linkSent, setLinkSent] = useState(false)
  const [sendingLink, setSendingLink] = useState(false)
  const {
    register,
    handleSubmit,
    trigger,
    getValues,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({ defaultValues: { email: '', password: '' } })

  // The e-mail link needs only the address; the answer is the same for any address.
  const sendLink = async () => {
    setError(undefined)
    setLinkSent(false)
    if (!(await trigger('email'))) return
    setSendingLink(true)
    try {
      const code = await requestEmailLink(getValues('email').trim(), callbackUrl ?? '/')
      if (code) setError(code)
      else setLinkSent(true)
    } catch {
      setError('Default')
    } finally {
      setSendingLink(false)
    }
  }

  const nextPath = (user: { redirectToLeaders: boolean; role: string }) =>
    afterSignInPath(callbackUrl, window.location.origin, user.redirectToLeaders && user.role !== 'SUPERADMIN')

  // Already signed in (and allowed in): straight on.
  // A session remembered on the device is not a sign-in: wait for the server's answer.
  if (status === 'authenticated' && session && !provisional && !session.user.disabled && !isSubmitting) {
    return <Navigate to={nextPath(session.user)} replace />
  }

  // Spec section 8: when the sign-in providers cannot be loaded, the user goes to the error page.
  if (signInProviders.failed) return <SignInUnavailable retrying={signInProviders.retrying} onRetry={signInProviders.retry} />

  const onSubmit = handleSubmit(async ({ email, password }) => {
    setError(undefined)
    const target = callbackUrl ?? '/'
    const code = await signInWithCredentials(email.trim(), password, target)
    if (code) {
      setError(code)
      return
    }
    const fresh = await refresh()
    if (!fresh) {
      setError('Default')
      return
    }
    if (fresh.user.disabled) {
      setError('AccountDisabled')
      return
    }
    navigate(nextPath(fresh.user), { replace: true })
  })

  return (
    <div className={SIGN_IN_COLUMN}>
      <PageTitle {...FIRST_FRAMES['/login']} />
      {error && <Alert>{signInErrorMessage(error, supportEmail)}</Alert>}
      {linkSent && <Alert tone="success">{LINK_SENT}</Alert>}
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormField label="Email" error={errors.email?.message}>
          <Input
            type="email"
            autoComplete="username"
            autoFocus
            {...register('email', { required: 'Enter your e-mail address.' })}
          />
        </FormField>
        <FormField label="Password" error={errors.password?.message}>
          <Input
            type="password"
            autoComplete="current-password"
            {...register('password', { required: 'Enter your password.' })}
          />
        </FormField>
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? 'Signing in…' : 'Sign in'}
        </Button>
        <Button type="button" variant="outline" className="w-full" disabled={sendingLink} onClick={sendLink}>
          Email me a sign-in link
        </Button>
      </form>
      {microsoft && (
        <>
          <p className="text-center text-sm text-muted-foreground">or</p>
          <MicrosoftSignIn
            signinUrl={microsoft.signinUrl}
            // Back here once signed in: this page then goes on exactly as after a password.
            callbackUrl={callbackUrl ? `/login?${new URLSearchParams({ callbackUrl })}` : '/login'}
            onError={setError}
          />
        </>
      )}
      <div className="flex justify-between text-sm">
        <Link to="/account/forgot" className="text-primary underline-offset-4 hover:underline">
          Forgot password?
        </Link>
        <Link to="/account/register" className="text-primary underline-offset-4 hover:underline">
          Register
        </Link>
      </div>
    </div>
  )
}

/** Sign-in's error page: the server's sign-in options could not be loaded. */
function SignInUnavailable({ retrying, onRetry }: { retrying: boolean; onRetry(): void }) {
  return (
    <div className="mx-auto w-full max-w-sm space-y-6">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Sign-in is not available just now</h1>
        <p className="text-muted-foreground">
          Voicemark could not load the ways to sign in. Check your connection, then try again in a moment.
        </p>
      </div>
      <Button className="w-full" disabled={retrying} onClick={onRetry}>
        {retrying ? 'Trying again…' : 'Try again'}
      </Button>
    </div>
  )
}
