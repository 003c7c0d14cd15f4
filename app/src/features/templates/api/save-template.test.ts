import { describe, expect, it } from 'vitest'

import { formField, parseTags, templateSchema, toSaveInput } from './save-template'

const valid = {
  title: ' Review ',
  tags: 'Year 7, review, Review,, ',
  visibility: 'SCHOOL' as const,
  questions: [
    { questionId: 'q1', text: ' One ', required: true },
    { questionId: null, text: 'Two', required: false },
  ],
}

describe('template form', () => {
  it('reads tags from a comma-separated text, dropping blanks and repeats', () => {
    expect(parseTags('Year 7, review, Review,, ')).toEqual(['Year 7', 'review'])
    expect(parseTags('')).toEqual([])
  })

  it('sends the questions in order with their ids', () => {
    expect(toSaveInput('t1', valid)).toEqual({
      id: 't1',
      title: 'Review',
      tags: ['Year 7', 'review'],
      visibility: 'SCHOOL',
      questions: [
        { id: 'q1', text: 'One', required: true },
        { id: null, text: 'Two', required: false },
      ],
    })
  })

  it('names server fields the way the form does', () => {
    expect(formField('questions[2].text')).toBe('questions.2.text')
    expect(formField('title')).toBe('title')
  })

  it('checks the same limits as the server', () => {
    expect(templateSchema.safeParse(valid).success).toBe(true)
    const empty = templateSchema.safeParse({ ...valid, title: ' ', questions: [] })
    expect(empty.success).toBe(false)
    const messages = empty.error?.issues.map((i) => i.message)
    expect(messages).toContain('Enter a title.')
    expect(messages).toContain('Add at least one question.')
    const tags = Array.from({ length: 11 }, (_, i) => `t${i}`).join(',')
    expect(templateSchema.safeParse({ ...valid, tags }).success).toBe(false)
    const long = { ...valid, questions: [{ questionId: null, text: 'x'.repeat(2001), required: false }] }
    expect(templateSchema.safeParse(long).success).toBe(false)
  })
})
