import { describe, expect, it } from 'vitest'

import { parseEvent, splitBlocks } from './generate-report'

describe('the report stream', () => {
  it('reads each kind of event', () => {
    expect(parseEvent('event: progress\ndata: {"step":2,"of":3,"label":"Summarising task 2 of 2"}')).toEqual({
      type: 'progress',
      step: 2,
      of: 3,
      label: 'Summarising task 2 of 2',
    })
    expect(parseEvent('event: text\ndata: {"delta":"# Hi"}')).toEqual({ type: 'text', delta: '# Hi' })
    expect(parseEvent('event: done\ndata: {}')).toEqual({ type: 'done' })
    expect(parseEvent('event: error\ndata: {"message":"No."}')).toEqual({ type: 'error', message: 'No.' })
    expect(parseEvent(':keep-alive')).toBeNull()
    expect(parseEvent('event: other\ndata: {}')).toBeNull()
  })

  it('keeps an unfinished event for the next chunk', () => {
    const { blocks, rest } = splitBlocks('event: text\ndata: {"delta":"a"}\n\nevent: te')
    expect(blocks).toEqual(['event: text\ndata: {"delta":"a"}'])
    expect(rest).toBe('event: te')
  })
})
