// The palette's ranking: word starts first, substrings after, scattered letters never.

import { describe, expect, it } from 'vitest'

import { paletteFilter, paletteScore } from './palette-ranking'

const rank = (names: string[], query: string) =>
  names
    .map((name) => ({ name, score: paletteScore([name], query) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score)
    .map(({ name }) => name)

describe('paletteScore', () => {
  it('does not list Noah Wilson for Isla', () => {
    expect(paletteScore(['Noah Wilson'], 'Isla')).toBe(0)
    expect(rank(['Noah Wilson', 'Mia Kislany', 'Isla Ward'], 'Isla')).toEqual(['Isla Ward', 'Mia Kislany'])
  })

  it('ranks names whose word starts with the typed text first', () => {
    expect(rank(['Jason Reed', 'Sonia Patel', 'Harry Sonning'], 'son')).toEqual(['Sonia Patel', 'Harry Sonning', 'Jason Reed'])
    expect(paletteScore(['Amelia Jones'], 'amelia j')).toBe(1)
    expect(paletteScore(['Amelia Jones'], 'jones')).toBe(0.8)
    expect(paletteScore(['Amelia Jones'], 'jones amelia')).toBe(0.8)
  })

  it('finds a pupil by group as well, below name matches', () => {
    expect(paletteScore(['Amelia Jones', 'Year 7', '7A'], '7a')).toBe(0.6)
    expect(paletteScore(['Amelia Jones', 'Year 7', '7A'], 'amelia 7a')).toBe(0.6)
    expect(paletteScore(['Amelia Jones', 'Year 7', '7A'], 'amelia 8b')).toBe(0)
  })

  it('ignores case and accents, and shows everything for an empty query', () => {
    expect(paletteScore(['Zoë Ávila'], 'ZOE av')).toBe(1)
    expect(paletteScore(['Zoë Ávila'], '  ')).toBe(1)
  })

  it('matches the actions by their words', () => {
    expect(paletteFilter('New voice note', 'voice')).toBe(0.8)
    expect(paletteFilter('New message', 'new m')).toBe(1)
    expect(paletteFilter('New photo', 'nwpht')).toBe(0)
  })
})
