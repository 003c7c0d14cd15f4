import { describe, expect, it } from 'vitest'

import { toCsv } from './csv'

describe('toCsv', () => {
  it('quotes cells with commas, quotes and line breaks, and leaves empty cells empty', () => {
    expect(toCsv(['Week', 'Rate'], [['a,b', 1.5], ['say "hi"', null]])).toBe(
      'Week,Rate\r\n"a,b",1.5\r\n"say ""hi""",\r\n',
    )
  })
})
