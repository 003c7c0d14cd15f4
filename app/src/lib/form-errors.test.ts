// The one helper that puts a BAD_REQUEST answer's field errors on a react-hook-form form.

import { TRPCClientError } from '@trpc/client'
import { describe, expect, it } from 'vitest'

import { failureToast, setServerErrors } from './form-errors'

function badRequest(fieldErrors: Record<string, string[]>) {
  return TRPCClientError.from({
    error: {
      message: 'Invalid input',
      code: -32600,
      data: { code: 'BAD_REQUEST', httpStatus: 400, path: 'notification.create', zodError: { formErrors: [], fieldErrors } },
    },
  })
}

function recorder() {
  const calls: Array<[string, string | undefined]> = []
  const setError = (name: string, error: { message?: string }) => void calls.push([name, error.message])
  return { calls, setError }
}

describe('setServerErrors', () => {
  it("puts each field's first message on that field, in the server's order", () => {
    const { calls, setError } = recorder()
    const error = badRequest({ title: ['Enter a title.', 'second'], sendDate: ['The send date is in the past.'] })
    const shown = setServerErrors(error, setError as never, ['title', 'sendDate', 'body'])
    expect(shown).toBe(true)
    expect(calls).toEqual([
      ['title', 'Enter a title.'],
      ['sendDate', 'The send date is in the past.'],
    ])
  })

  it("ignores fields the form does not have, and renames the server's names", () => {
    const { calls, setError } = recorder()
    const error = badRequest({ token: ['bad'], newPassword: ['Too short.'] })
    expect(setServerErrors(error, setError as never, ['password'], { newPassword: 'password' })).toBe(true)
    expect(calls).toEqual([['password', 'Too short.']])
  })

  it('answers false for other failures, which get the general toast', () => {
    const { calls, setError } = recorder()
    const error = new Error('The server is down.')
    expect(setServerErrors(error, setError as never, ['title'])).toBe(false)
    expect(calls).toEqual([])
    expect(failureToast(error)).toEqual({ title: 'Something went wrong', description: 'The server is down.', tone: 'error' })
  })
})
