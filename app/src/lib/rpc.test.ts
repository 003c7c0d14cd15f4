// Reading BAD_REQUEST field errors and messages from tRPC client errors.

import { TRPCClientError } from '@trpc/client'
import { describe, expect, it } from 'vitest'

import { errorCode, errorMessage, fieldErrors } from './rpc'

function badRequest(fieldErrors: Record<string, string[]>, formErrors: string[] = []) {
  return TRPCClientError.from({
    error: {
      message: 'Invalid input',
      code: -32600,
      data: { code: 'BAD_REQUEST', httpStatus: 400, path: 'user.changePassword', zodError: { formErrors, fieldErrors } },
    },
  })
}

describe('fieldErrors', () => {
  it('takes the first message of each field', () => {
    const error = badRequest({ currentPassword: ['Incorrect password.', 'second'], newPassword: [] })
    expect(fieldErrors(error)).toEqual({ currentPassword: 'Incorrect password.' })
    expect(errorCode(error)).toBe('BAD_REQUEST')
  })

  it('is empty for other errors', () => {
    expect(fieldErrors(new Error('network'))).toEqual({})
    expect(fieldErrors(undefined)).toEqual({})
  })
})

describe('errorMessage', () => {
  it('prefers a form error, then the server message', () => {
    expect(errorMessage(badRequest({}, ['Token expired']))).toBe('Token expired')
    expect(errorMessage(badRequest({ email: ['Bad'] }))).toBe('Please correct the highlighted fields.')
    expect(errorMessage(new Error('Only admins can do this'))).toBe('Only admins can do this')
    expect(errorMessage('???')).toBe('Something went wrong, please try again.')
  })
})
