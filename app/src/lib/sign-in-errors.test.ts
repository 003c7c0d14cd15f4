// The sign-in error codes and their exact texts (spec section 8).

import { describe, expect, it } from 'vitest'

import { errorFromUrl } from './auth-client'
import { SIGN_IN_ERRORS, signInErrorMessage, SUPPORT_EMAIL } from './sign-in-errors'

describe('signInErrorMessage', () => {
  it('maps each code to the catalogue text', () => {
    expect(signInErrorMessage('UserNotFound')).toBe(
      'You do not have an active account with us, please contact support if you believe this to be in error.',
    )
    expect(signInErrorMessage('UserNotActivated')).toBe(
      'Your account must be activated before you can access the product, please contact your school administrator.',
    )
    expect(signInErrorMessage('AccountDisabled')).toBe(
      'Your account is currently disabled. Please email support@voicemark.app for more information.',
    )
    expect(signInErrorMessage('CredentialsSignin')).toBe('Incorrect username or password.')
    expect(signInErrorMessage('Default')).toBe('Sign in failed, please try again later.')
    expect(signInErrorMessage('TooManyAttempts')).toBe('Too many sign-in attempts. Please wait 15 minutes and try again.')
    expect(signInErrorMessage('SessionRequired')).toBe('Please sign in to continue.')
    expect(SUPPORT_EMAIL).toBe('support@voicemark.app')
  })

  it('explains each Sign in with Microsoft failure', () => {
    expect(signInErrorMessage('OAuthSignin')).toBe('Sign in with Microsoft could not be started. Please try again later.')
    expect(signInErrorMessage('OAuthCallbackError')).toBe(
      'Sign in with Microsoft did not complete. Please try again, or sign in with your e-mail address.',
    )
    expect(signInErrorMessage('OAuthAccountNotLinked')).toBe(
      'Your Voicemark account is linked to a different Microsoft account. Sign in with that Microsoft account, or with your e-mail address.',
    )
  })

  it('names the configured support address in the AccountDisabled text', () => {
    expect(signInErrorMessage('AccountDisabled', 'help@school.example')).toBe(
      'Your account is currently disabled. Please email help@school.example for more information.',
    )
    expect(signInErrorMessage('AccountDisabled', '')).toBe(SIGN_IN_ERRORS.AccountDisabled)
    expect(signInErrorMessage('CredentialsSignin', 'help@school.example')).toBe('Incorrect username or password.')
  })

  it('reads an unknown code as Default and no code as no message', () => {
    expect(signInErrorMessage('NotACode')).toBe(SIGN_IN_ERRORS.Default)
    expect(signInErrorMessage('toString')).toBe(SIGN_IN_ERRORS.Default)
    expect(signInErrorMessage('')).toBeUndefined()
    expect(signInErrorMessage(null)).toBeUndefined()
  })
})

describe('errorFromUrl', () => {
  it('reads the error code of an Auth.js answer url', () => {
    expect(errorFromUrl('http://localhost/login?error=CredentialsSignin')).toBe('CredentialsSignin')
    expect(errorFromUrl('/login?error=UserNotFound&callbackUrl=%2F')).toBe('UserNotFound')
    expect(errorFromUrl('http://localhost/feedback')).toBeUndefined()
    expect(errorFromUrl(undefined)).toBeUndefined()
  })
})
