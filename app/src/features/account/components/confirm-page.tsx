//! /account/confirm?token=: confirms the e-mail address as soon as the page opens.

import { useSearchParams } from 'react-router'

import { Alert } from '@/components/ui/alert'

import { useConfirmEmail } from '../api/confirm-email'
import { AccountFrame } from './account-frame'
import { LINK_INVALID } from './reset-page'

export const EMAIL_CONFIRMED =
  'Your e-mail address is confirmed. You can sign in once your school administrator has activated your account.'

/** The answer when confirming created the registrant's organisation. */
export const organisationReady = (name: string) =>
  `Your e-mail address is confirmed and ${name} is ready. Sign in to start as its administrator.`

export function ConfirmEmailPage() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const confirm = useConfirmEmail(token)

  let body
  if (!token || confirm.isError) body = <Alert>{LINK_INVALID}</Alert>
  else if (confirm.isSuccess)
    body = (
      <Alert tone="success">
        {confirm.data.organisationName ? organisationReady(confirm.data.organisationName) : EMAIL_CONFIRMED}
      </Alert>
    )
  else body = <p role="status">Confirming your e-mail address…</p>

  return <AccountFrame title="Confirm e-mail address">{body}</AccountFrame>
}
