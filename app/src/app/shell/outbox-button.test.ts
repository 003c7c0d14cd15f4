import { describe, expect, it } from 'vitest'

import { outboxLabel, stateText } from './outbox-button'
import { unsentTitle } from './user-menu'

describe('the Outbox words', () => {
  it('names the button with the count', () => {
    expect(outboxLabel(0)).toBe('Outbox, nothing waiting')
    expect(outboxLabel(2)).toBe('Outbox, 2 waiting')
  })

  it('says where each item stands', () => {
    expect(stateText({ state: 'waiting' })).toBe('Waiting')
    expect(stateText({ state: 'sending', progress: 0.456 })).toBe('Sending 46%')
    expect(stateText({ state: 'sent' })).toBe('Sent')
    expect(stateText({ state: 'stuck' })).toBe('Stuck')
  })

  it('warns before Log out in whole sentences', () => {
    expect(unsentTitle(1)).toBe('1 thing you captured has not been sent yet')
    expect(unsentTitle(3)).toBe('3 things you captured have not been sent yet')
  })
})
