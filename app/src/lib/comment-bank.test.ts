import { describe, expect, it } from 'vitest'

import { fillName, insertComment, moveActive, typedFragment } from './comment-bank'

describe('fillName', () => {
  it('fills every {name} and keeps it without a name', () => {
    expect(fillName('Well done {name}! {name}, keep going.', ' Amelia ')).toBe('Well done Amelia! Amelia, keep going.')
    expect(fillName('Well done {name}.', '')).toBe('Well done {name}.')
    expect(fillName('Well done {name}.', undefined)).toBe('Well done {name}.')
    expect(fillName('{Name} stays', 'Amelia')).toBe('{Name} stays')
  })
})

describe('typedFragment', () => {
  it('is the words typed since the last sentence end', () => {
    const value = 'Good start. Great use of evi'
    expect(typedFragment(value, value.length)).toEqual({ start: 12, text: 'Great use of evi' })
    expect(typedFragment('Gre', 3)).toEqual({ start: 0, text: 'Gre' })
    expect(typedFragment('Line one\n  nex', 14)).toEqual({ start: 11, text: 'nex' })
  })

  it('needs three letters', () => {
    expect(typedFragment('Good. Gr', 8)).toBeNull()
    expect(typedFragment('Good. ', 6)).toBeNull()
    expect(typedFragment('', 0)).toBeNull()
    expect(typedFragment('a b', 3)).toBeNull()
  })

  it('reads up to the caret only', () => {
    expect(typedFragment('Great work. More', 5)).toEqual({ start: 0, text: 'Great' })
  })
})

describe('insertComment', () => {
  it('replaces the fragment, fills the name and puts the caret after it', () => {
    const value = 'Good start. Great use'
    const out = insertComment(value, 12, value.length, 'Great use of evidence, {name}.', 'Amelia')
    expect(out.value).toBe('Good start. Great use of evidence, Amelia.')
    expect(out.caret).toBe(out.value.length)
    const middle = insertComment('Gre and more', 0, 3, 'Great work.', 'Oliver')
    expect(middle).toEqual({ value: 'Great work. and more', caret: 11 })
  })
})

describe('moveActive', () => {
  it('moves and wraps', () => {
    expect(moveActive(-1, 3, 'ArrowDown')).toBe(0)
    expect(moveActive(2, 3, 'ArrowDown')).toBe(0)
    expect(moveActive(0, 3, 'ArrowUp')).toBe(2)
    expect(moveActive(1, 3, 'ArrowUp')).toBe(0)
    expect(moveActive(0, 0, 'ArrowDown')).toBe(-1)
  })
})
