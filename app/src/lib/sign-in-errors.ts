//! The sign-in error codes that arrive as `?error=` on /login, and their texts (spec section 8).

/**
 * The support address in the AccountDisabled text. The server's default
 * (`VOICEMARK_SUPPORT_EMAIL`) cannot be read from the browser, so it is fixed here, once.
 */
export const SUPPORT_EMAIL = 'support@voicemark.app'

export const SIGN_IN_ERRORS = {
  UserNotFound:
    'You do not have an active account with us, please contact support if you believe this to be in error.',
  UserNotActivated:
    'Your account must be activated before you can access the product, please contact your school administrator.',
  AccountDisabled: `Your account is currently disabled. Please email ${SUPPORT_EMAIL} for more information.`,
  CredentialsSignin: 'Incorrect username or password.',
  Default: 'Sign in failed, please try again later.',
  TooManyAttempts: 'Too many sign-in attempts. Please wait 15 minutes and try again.',
  SessionRequired: 'Please sign in to continue.',
  // Not in the spec's catalogue: the e-mail link could not be sent (e.g. a malformed address).
  EmailSignin: 'The sign-in link could not be sent. Please check the address and try again.',
} as const

export type SignInErrorCode = keyof typeof SIGN_IN_ERRORS

/** The text for `code`; an unknown, non-empty code reads as Default; no code, no text. */
export function signInErrorMessage(code: string | null | undefined): string | undefined {
  if (!code) return undefined
  return Object.hasOwn(SIGN_IN_ERRORS, code)
    ? SIGN_IN_ERRORS[code as SignInErrorCode]
    : SIGN_IN_ERRORS.Default
}
