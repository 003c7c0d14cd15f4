import { describe, expect, it } from 'vitest'

import type { Session } from './auth-client'
import { sessionPollMs } from './session'

const session = (pollSeconds?: number): Session => ({
  user: {
    id: 'u',
    forename: 'Ada',
    surname: 'Lovelace',
    name: 'Ada Lovelace',
    email: 'ada@school.test',
    role: 'TEACHER',
    disabled: false,
    redirectToLeaders: false,
    leader: false,
    hasCompletedTutorial: true,
    stripeProductId: null,
    pro: false,
  },
  expires: '2026-12-01T00:00:00.000Z',
  pollSeconds,
})

describe('sessionPollMs', () => {
  it('polls at the interval the server sets', () => {
    expect(sessionPollMs(session(30))).toBe(30_000)
  })

  it('does not poll when the server says 0, says nothing, or nobody is signed in', () => {
    expect(sessionPollMs(session(0))).toBe(false)
    expect(sessionPollMs(session())).toBe(false)
    expect(sessionPollMs(null)).toBe(false)
    expect(sessionPollMs(undefined)).toBe(false)
  })
})
