import { TRPCClientError } from '@trpc/client'
import { describe, expect, it } from 'vitest'

import { UploadError } from '../upload'
import { backoffMs, FIRST_BACKOFF_MS, MAX_BACKOFF_MS, serverAnswered, verdict } from './retry'

function trpcError(message: string, httpStatus?: number, code?: string) {
  const error = new TRPCClientError(message)
  Object.assign(error, { data: httpStatus ? { httpStatus, code } : undefined })
  return error
}

describe('verdict', () => {
  it('tries a lost connection again', () => {
    expect(verdict(new TypeError('Failed to fetch'))).toEqual({ retry: true })
    expect(verdict(trpcError('fetch failed'))).toEqual({ retry: true })
    expect(verdict(new UploadError('a.wav', 0, 'The upload could not reach the storage'))).toEqual({ retry: true })
  })

  it('tries a busy or failing server again', () => {
    for (const status of [429, 500, 502, 503, 504]) expect(verdict(trpcError('busy', status))).toEqual({ retry: true })
    expect(verdict(trpcError('This request is already being processed.', 409, 'CONFLICT'))).toEqual({ retry: true })
    expect(verdict(new UploadError('a.wav', 503, 'The storage answered 503'))).toEqual({ retry: true })
  })

  it('makes a refusal Stuck at once, with the server sentence', () => {
    expect(verdict(trpcError('Submission not found', 404, 'NOT_FOUND'))).toEqual({ retry: false, reason: 'Submission not found' })
    expect(verdict(trpcError('This submission has already been marked.', 400, 'BAD_REQUEST'))).toEqual({
      retry: false,
      reason: 'This submission has already been marked.',
    })
    expect(verdict(trpcError('Someone changed it', 409, 'CONFLICT'))).toEqual({ retry: false, reason: 'Someone changed it' })
    expect(verdict(new UploadError('a.wav', 413, 'Files must be 50 MB or smaller in total.'))).toEqual({
      retry: false,
      reason: 'Files must be 50 MB or smaller in total.',
    })
  })

  it('never shows a code as the reason', () => {
    expect(verdict(trpcError('FORBIDDEN', 403, 'FORBIDDEN'))).toMatchObject({ retry: false, reason: expect.not.stringMatching(/FORBIDDEN/) })
  })
})

describe('backoffMs', () => {
  it('doubles from the first wait up to the longest, with at most a fifth more', () => {
    expect(backoffMs(1, 0)).toBe(FIRST_BACKOFF_MS)
    expect(backoffMs(2, 0)).toBe(2 * FIRST_BACKOFF_MS)
    expect(backoffMs(3, 0)).toBe(4 * FIRST_BACKOFF_MS)
    expect(backoffMs(30, 0)).toBe(MAX_BACKOFF_MS)
    expect(backoffMs(1, 1)).toBe(1.2 * FIRST_BACKOFF_MS)
  })
})

describe('serverAnswered', () => {
  it('tells an answer from a lost connection', () => {
    expect(serverAnswered(trpcError('Bad gateway', 502, 'BAD_GATEWAY'))).toBe(true)
    expect(serverAnswered(new UploadError('a.wav', 413, 'too big'))).toBe(true)
    expect(serverAnswered(trpcError('fetch failed'))).toBe(false)
    expect(serverAnswered(new UploadError('a.wav', 0, 'offline'))).toBe(false)
    expect(serverAnswered(new TypeError('Failed to fetch'))).toBe(false)
  })
})
