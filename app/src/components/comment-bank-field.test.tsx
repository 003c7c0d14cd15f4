import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'

import type { BankCommentView } from '@/generated/rpc-types'

import { CLOSED, CommentBankField, createSearcher, typeaheadReducer } from './comment-bank-field'

function option(id: string, text: string): BankCommentView {
  return {
    id,
    text,
    sentiment: 'POSITIVE',
    tags: [],
    useCount: 0,
    lastUsedAt: null,
    createdAt: new Date(0),
    shelf: 'MINE',
    proposedBy: null,
    canChange: true,
  }
}

describe('typeaheadReducer', () => {
  const options = [option('a', 'Great use of evidence.'), option('b', 'Great start.'), option('c', 'Great work.')]

  it('opens on results with the first option active, and closes on none', () => {
    const open = typeaheadReducer(CLOSED, { type: 'results', options, start: 4, end: 9 })
    expect(open).toEqual({ open: true, options, active: 0, start: 4, end: 9 })
    expect(typeaheadReducer(open, { type: 'results', options: [], start: 0, end: 0 })).toBe(CLOSED)
  })

  it('moves with the arrow keys, wrapping, and only while open', () => {
    let state = typeaheadReducer(CLOSED, { type: 'results', options, start: 0, end: 3 })
    state = typeaheadReducer(state, { type: 'move', key: 'ArrowUp' })
    expect(state.active).toBe(2)
    state = typeaheadReducer(state, { type: 'move', key: 'ArrowDown' })
    expect(state.active).toBe(0)
    expect(typeaheadReducer(CLOSED, { type: 'move', key: 'ArrowDown' })).toBe(CLOSED)
  })

  it('closes on Escape (close)', () => {
    const open = typeaheadReducer(CLOSED, { type: 'results', options, start: 0, end: 3 })
    expect(typeaheadReducer(open, { type: 'close' })).toBe(CLOSED)
  })
})

describe('createSearcher', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('asks once for quick typing, with the last fragment', async () => {
    vi.useFakeTimers()
    const search = vi.fn(async (query: string) => [query])
    const answers: string[][] = []
    const searcher = createSearcher(search, (answer) => answers.push(answer), 150)
    searcher.ask('Gre')
    vi.advanceTimersByTime(100)
    searcher.ask('Grea')
    vi.advanceTimersByTime(100)
    searcher.ask('Great')
    await vi.advanceTimersByTimeAsync(150)
    expect(search).toHaveBeenCalledTimes(1)
    expect(search).toHaveBeenCalledWith('Great')
    expect(answers).toEqual([['Great']])
  })

  it('drops an answer that arrives after a newer question', async () => {
    vi.useFakeTimers()
    const resolvers: Array<(value: string) => void> = []
    const search = (query: string) => new Promise<string>((resolve) => resolvers.push(() => resolve(query)))
    const answers: string[] = []
    const searcher = createSearcher(search, (answer) => answers.push(answer), 10)
    searcher.ask('Gre')
    await vi.advanceTimersByTimeAsync(10)
    searcher.ask('Great us')
    await vi.advanceTimersByTimeAsync(10)
    resolvers[1]('Great us')
    resolvers[0]('Gre')
    await vi.runAllTimersAsync()
    expect(answers).toEqual(['Great us'])
    searcher.ask('Great use')
    searcher.cancel()
    await vi.runAllTimersAsync()
    expect(resolvers).toHaveLength(2)
  })
})

describe('CommentBankField', () => {
  it('renders a labelled combobox with a closed listbox, passing id and aria props through', () => {
    const html = renderToStaticMarkup(
      <CommentBankField id="feedback-1" name="feedback" aria-describedby="hint-1" pupilFirstName="Amelia" />,
    )
    expect(html).toContain('id="feedback-1"')
    expect(html).toContain('name="feedback"')
    expect(html).toContain('role="combobox"')
    expect(html).toContain('aria-expanded="false"')
    expect(html).toContain('aria-autocomplete="list"')
    expect(html).toContain('aria-describedby="hint-1"')
    expect(html).toMatch(/<ul[^>]*role="listbox"[^>]*aria-label="Comment bank"[^>]*hidden=""/)
    expect(html).not.toContain('aria-activedescendant')
  })
})
