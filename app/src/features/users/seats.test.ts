import { describe, expect, it } from 'vitest'

import { seatState } from './seats'

describe('seatState', () => {
  it('says plainly when a Basic school has more users than its one seat', () => {
    const state = seatState({ seats: null, used: 5, pending: 0, available: 0 })
    expect(state).toMatchObject({ basic: true, allowance: 1, taken: 5, over: 4, canInvite: false })
    expect(state.summary).toBe(
      'Your school has more users than seats: 5 users, but the Basic plan has 1 seat. That is 4 more than your plan allows, so nobody new can be invited. Everyone already here can keep working. Upgrade to Pro to invite colleagues.',
    )
    expect(state.inviteBlockedReason).toBe('No seat is free, so nobody can be invited.')
  })

  it('counts invited users and names the subscription on Pro', () => {
    const state = seatState({ seats: 3, used: 3, pending: 2, available: 0 })
    expect(state.over).toBe(2)
    expect(state.summary).toContain('5 users (3 active, 2 invited), but your plan has 3 seats.')
    expect(state.summary).toContain('Manage subscription')
  })

  it('says the seats are full, without "more than", when exactly full', () => {
    const state = seatState({ seats: 4, used: 4, pending: 0, available: 0 })
    expect(state.over).toBe(0)
    expect(state.canInvite).toBe(false)
    expect(state.summary).toBe('All your seats are taken. To buy more seats, choose Manage subscription in the user menu.')
  })

  it('lets an invitation through when a seat is free or there is no limit', () => {
    expect(seatState({ seats: 50, used: 5, pending: 1, available: 44 })).toMatchObject({ canInvite: true, summary: null, inviteBlockedReason: null })
    expect(seatState({ seats: null, used: 9, pending: 0, available: null })).toMatchObject({ canInvite: true, allowance: null, over: 0 })
  })

  it('keeps the Basic wording when the one seat is exactly taken', () => {
    expect(seatState({ seats: null, used: 1, pending: 0, available: 0 }).summary).toBe(
      'All your seats are taken: the Basic plan has one user. Upgrade to Pro to invite colleagues.',
    )
  })

  it('ends every sentence with a full stop', () => {
    for (const info of [
      { seats: null, used: 5, pending: 0, available: 0 },
      { seats: 2, used: 2, pending: 0, available: 0 },
    ]) {
      const state = seatState(info)
      expect(state.summary).toMatch(/\.$/)
      expect(state.inviteBlockedReason).toMatch(/\.$/)
    }
  })
})
