import { describe, expect, it } from 'vitest'

import { hubKeyAction, isTyping, range, step, type KeyLike } from './hub-keys'

/** An element as the rule reads it (Vitest runs without a DOM here). */
function el(tagName: string, props: Record<string, unknown> = {}): EventTarget {
  return { tagName, ...props } as unknown as EventTarget
}

function key(key: string, extra: Partial<KeyLike> = {}): KeyLike {
  return { key, ctrlKey: false, metaKey: false, altKey: false, target: el('BODY'), ...extra }
}

describe('hubKeyAction', () => {
  it('reads the letters, digits and ? outside text fields', () => {
    expect(hubKeyAction(key('j'), false)).toBe('next')
    expect(hubKeyAction(key('K'), false)).toBe('previous')
    expect(hubKeyAction(key('1'), false)).toBe('neutral')
    expect(hubKeyAction(key('2'), false)).toBe('positive')
    expect(hubKeyAction(key('3'), false)).toBe('negative')
    expect(hubKeyAction(key('d'), false)).toBe('dictate')
    expect(hubKeyAction(key('?'), false)).toBe('help')
    expect(hubKeyAction(key('x'), false)).toBeNull()
  })

  it('moves with the arrow keys only in the list', () => {
    expect(hubKeyAction(key('ArrowDown'), true)).toBe('next')
    expect(hubKeyAction(key('ArrowUp'), true)).toBe('previous')
    expect(hubKeyAction(key('ArrowDown'), false)).toBeNull()
  })

  it('leaves typing alone but for Ctrl or ⌘ with Enter', () => {
    const textarea = el('TEXTAREA')
    const input = el('INPUT', { type: 'text' })
    expect(hubKeyAction(key('j', { target: textarea }), false)).toBeNull()
    expect(hubKeyAction(key('2', { target: input }), false)).toBeNull()
    expect(hubKeyAction(key('Enter', { target: textarea, ctrlKey: true }), false)).toBe('mark')
    expect(hubKeyAction(key('Enter', { target: textarea, metaKey: true }), false)).toBe('mark')
    expect(hubKeyAction(key('Enter', { target: textarea }), false)).toBeNull()
    expect(hubKeyAction(key('j', { ctrlKey: true }), false)).toBeNull()
  })

  it('takes a radio button or a checkbox for not typing', () => {
    const radio = el('INPUT', { type: 'radio' })
    expect(isTyping(radio)).toBe(false)
    expect(hubKeyAction(key('3', { target: radio }), false)).toBe('negative')
    expect(isTyping(el('SELECT'))).toBe(true)
    expect(isTyping(el('DIV', { isContentEditable: true }))).toBe(true)
  })
})

describe('step and range', () => {
  const ids = ['a', 'b', 'c', 'd']
  it('moves within the ends', () => {
    expect(step(ids, 'b', 1)).toBe('c')
    expect(step(ids, 'd', 1)).toBe('d')
    expect(step(ids, 'a', -1)).toBe('a')
    expect(step(ids, undefined, 1)).toBe('a')
    expect(step([], 'a', 1)).toBeUndefined()
  })
  it('spans a Shift-click range either way', () => {
    expect(range(ids, 'b', 'd')).toEqual(['b', 'c', 'd'])
    expect(range(ids, 'd', 'b')).toEqual(['b', 'c', 'd'])
    expect(range(ids, 'x', 'c')).toEqual(['c'])
  })
})
