import { describe, expect, it } from 'vitest'

import { fillName } from './fill-name'

describe('fillName', () => {
  it('fills every {name} with the first name', () => {
    expect(fillName('Well done {name}! {name}, next time check spelling.', ' Amelia ')).toBe(
      'Well done Amelia! Amelia, next time check spelling.',
    )
  })
  it('leaves text without {name} and keeps {name} without a name', () => {
    expect(fillName('Good work.', 'Amelia')).toBe('Good work.')
    expect(fillName('Well done {name}', '  ')).toBe('Well done {name}')
  })
})
