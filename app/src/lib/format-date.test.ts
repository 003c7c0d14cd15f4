import { describe, expect, it } from 'vitest'

import { formatDate, isoDate } from './format-date'

describe('formatDate', () => {
  it('writes dd/MM/yyyy, with the time when asked', () => {
    const at = new Date(2026, 0, 5, 9, 7)
    expect(formatDate(at)).toBe('05/01/2026')
    expect(formatDate(at, true)).toBe('05/01/2026, 09:07')
  })

  it('gives nothing for an invalid date', () => {
    expect(formatDate('not a date')).toBe('')
    expect(isoDate('not a date')).toBe('')
  })
})
