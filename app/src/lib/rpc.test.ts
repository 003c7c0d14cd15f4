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

  it('never shows a code: a bare code answer reads as a sentence', () => {
    const bare = (code: string, httpStatus: number) =>
      TRPCClientError.from({ error: { message: code, code: -32603, data: { code, httpStatus } } })
    expect(errorMessage(bare('FORBIDDEN', 403))).toBe(
      'Your account does not have permission to do this. Ask your school administrator if you need it.',
    )
    expect(errorMessage(bare('NOT_FOUND', 404))).toBe(
      'This could not be found. It may have been deleted, or the link may be wrong.',
    )
    expect(errorMessage(bare('SERVICE_UNAVAILABLE', 503))).toBe('Voicemark is busy just now. Please try again in a minute.')
    expect(errorMessage(bare('SOMETHING_NEW', 500))).toBe('Something went wrong, please try again.')
    expect(errorMessage(new Error('INTERNAL_SERVER_ERROR'))).toBe('Something went wrong, please try again.')
  })

  it('keeps the server sentence that comes with a code', () => {
    const withSentence = TRPCClientError.from({
      error: { message: 'Only admins can invite users.', code: -32603, data: { code: 'FORBIDDEN', httpStatus: 403 } },
    })
    expect(errorMessage(withSentence)).toBe('Only admins can invite users.')
  })

  it('says the network is down in plain words', () => {
    expect(errorMessage(new TypeError('Failed to fetch'))).toBe(
      'Voicemark could not be reached. Check your connection and try again.',
    )
  })
})
