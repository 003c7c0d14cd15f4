//! 'Sign in with Microsoft': a real form POST to Auth.js's `signin/azure-ad` with the CSRF
//! token (fetched as the form is sent, so it is never stale); the server answers with a
//! redirect to Microsoft, and Microsoft's redirect back ends on `callbackUrl`.

import { useRef, useState, type FormEvent } from 'react'

import { Button } from '@/components/ui/button'
import { csrfToken } from '@/lib/auth-client'

export const MICROSOFT_SIGN_IN = 'Sign in with Microsoft'

/** Microsoft's four-square mark (decorative: the button's text names it). */
function MicrosoftMark() {
  return (
    <svg aria-hidden="true" focusable="false" width="16" height="16" viewBox="0 0 21 21">
      <rect x="1" y="1" width="9" height="9" fill="#f25022" />
      <rect x="11" y="1" width="9" height="9" fill="#7fba00" />
      <rect x="1" y="11" width="9" height="9" fill="#00a4ef" />
      <rect x="11" y="11" width="9" height="9" fill="#ffb900" />
    </svg>
  )
}

export function MicrosoftSignIn({ signinUrl, callbackUrl, onError }: {
  /** The provider's `signinUrl` from `/api/auth/providers`. */
  signinUrl: string
  /** Where the browser goes once signed in. */
  callbackUrl: string
  /** Called with an error code when the form cannot be sent. */
  onError: (code: string) => void
}) {
  const tokenField = useRef<HTMLInputElement>(null)
  const [sending, setSending] = useState(false)

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    setSending(true)
    try {
      const token = await csrfToken()
      if (tokenField.current) tokenField.current.value = token
      // A native submit: the browser follows the redirects to Microsoft and back.
      form.submit()
    } catch {
      setSending(false)
      onError('OAuthSignin')
    }
  }

  return (
    <form method="post" action={new URL(signinUrl, window.location.origin).pathname} onSubmit={onSubmit}>
      <input ref={tokenField} type="hidden" name="csrfToken" defaultValue="" />
      <input type="hidden" name="callbackUrl" value={callbackUrl} readOnly />
      <Button type="submit" variant="outline" className="w-full" disabled={sending}>
        <MicrosoftMark />
        {MICROSOFT_SIGN_IN}
      </Button>
    </form>
  )
}
