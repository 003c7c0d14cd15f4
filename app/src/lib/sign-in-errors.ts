//! The sign-in error codes that arrive as `?error=` on /login, and their texts (spec section 8).

/**
 * The server's default support address (`VOICEMARK_SUPPORT_EMAIL` unset): the AccountDisabled
 * text uses it only until the configured one has arrived from `system.support`.
 */
export const SUPPORT_EMAIL = 'support@voicemark.app'

export const SIGN_IN_ERRORS = {
  // Only after a sign-in that proved who the user is (Sign in with Microsoft) with no account
  // behind it: a password sign-in with an unknown address reads CredentialsSignin, so the page
  // never tells a stranger which addresses have accounts (docs/security.md).
  UserNotFound:
    'You do not have an active account with us, please contact support if you believe this to be in error.',
  UserNotActivated:
    'Your account must be activated before you can access the product, please contact your school administrator.',
  AccountDisabled: accountDisabledMessage(SUPPORT_EMAIL),
  CredentialsSignin: 'Incorrect username or password.',
  Default: 'Sign in failed, please try again later.',
  TooManyAttempts: 'Too many sign-in attempts. Please wait 15 minutes and try again.',
  SessionRequired: 'Please sign in to continue.',
  // Not in the spec's catalogue: the e-mail link could not be sent (e.g. a malformed address).
  EmailSignin: 'The sign-in link could not be sent. Please check the address and try again.',
  // Sign in with Microsoft (Auth.js's error kinds; not in the spec's catalogue). An unknown
  // address reads as UserNotFound above; docs/microsoft-signin.md.
  OAuthSignin: 'Sign in with Microsoft could not be started. Please try again later.',
  OAuthCallbackError:
    'Sign in with Microsoft did not complete. Please try again, or sign in with your e-mail address.',
  OAuthAccountNotLinked:
    'Your Voicemark account is linked to a different Microsoft account. Sign in with that Microsoft account, or with your e-mail address.',
} as const

export type SignInErrorCode = keyof typeof SIGN_IN_ERRORS

/** The AccountDisabled text (spec section 8) naming `supportEmail`. */
export function accountDisabledMessage(supportEmail: string): string {
  return `Your account is currently disabled. Please email ${supportEmail} for more information.`
}

/**
 * The text for `code`; an unknown, non-empty code reads as Default; no code, no text.
 * AccountDisabled names `supportEmail` (the server's configured address) when given.
 */
export function signInErrorMessage(code: string | null | undefined, supportEmail?: string): string | undefined {
  if (!code) return undefined
  if (code === 'AccountDisabled' && supportEmail) return accountDisabledMessage(supportEmail)
  return Object.hasOwn(SIGN_IN_ERRORS, code)
    ? SIGN_IN_ERRORS[code as SignInErrorCode]
    : SIGN_IN_ERRORS.Default
}
