//! What Manage Users says about a school's seats: how many it may fill, whether a seat is
//! free, and — when it holds more users than seats (a school moved back to Basic, or seats
//! sold back) — a plain sentence saying so. Pure, so the wording is unit-tested.

import type { SeatInfo } from '@/generated/rpc-types'

export interface SeatState {
  /** On Basic (one user, no seat count bought). */
  basic: boolean
  /** Seats the school may fill (`null`: no limit). */
  allowance: number | null
  /** Active and invited users together. */
  taken: number
  /** Users beyond the allowance (0 when within it). */
  over: number
  /** Whether one more person can be invited. */
  canInvite: boolean
  /** Why nobody can be invited (`null` when someone can). */
  inviteBlockedReason: string | null
  /** The sentence under the figures when the seats are full or over (`null` otherwise). */
  summary: string | null
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** The seat state `leader.getSeatInfo` describes. Basic allows one user (`seats` is null but `available` is not). */
export function seatState(info: SeatInfo): SeatState {
  const basic = info.seats === null && info.available !== null
  const allowance = basic ? 1 : info.seats
  const taken = info.used + info.pending
  const over = allowance === null ? 0 : Math.max(0, taken - allowance)
  const canInvite = info.available === null || info.available > 0
  const howToGetMore = basic
    ? 'Upgrade to Pro to invite colleagues.'
    : 'To buy more seats, choose Manage subscription in the user menu.'
  let summary: string | null = null
  if (over > 0 && allowance !== null) {
    const users =
      info.pending > 0
        ? `${plural(taken, 'user', 'users')} (${info.used} active, ${info.pending} invited)`
        : plural(taken, 'user', 'users')
    const plan = basic ? 'the Basic plan has 1 seat' : `your plan has ${plural(allowance, 'seat', 'seats')}`
    summary = `Your school has more users than seats: ${users}, but ${plan}. That is ${over} more than your plan allows, so nobody new can be invited. Everyone already here can keep working. ${howToGetMore}`
  } else if (!canInvite) {
    summary = basic
      ? `All your seats are taken: the Basic plan has one user. ${howToGetMore}`
      : `All your seats are taken. ${howToGetMore}`
  }
  return {
    basic,
    allowance,
    taken,
    over,
    canInvite,
    inviteBlockedReason: canInvite ? null : 'No seat is free, so nobody can be invited.',
    summary,
  }
}
