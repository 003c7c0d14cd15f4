import { describe, expect, it } from 'vitest'

import { changedAnswers, mergeSaved, parseTags, savedFrom } from './task-draft'

describe('task drafts', () => {
  it('reads tags as a trimmed list without repeats', () => {
    expect(parseTags(' English, y7 ,, english, Y7 ')).toEqual(['English', 'y7'])
    expect(parseTags('')).toEqual([])
  })

  it('sends only the answers the user changed, over their versions', () => {
    const saved = savedFrom([{ questionId: 'q1', answer: 'Old', version: 2 }])
    expect(changedAnswers(['q1', 'q2', 'q3'], ['Old', 'New', ''], saved)).toEqual([
      { questionId: 'q2', answer: 'New', baseVersion: 0 },
    ])
    expect(changedAnswers(['q1'], ['Edited'], saved)).toEqual([{ questionId: 'q1', answer: 'Edited', baseVersion: 2 }])
  })

  it("merges a save without touching the user's text, and leaves conflicts to the user", () => {
    const saved = savedFrom([
      { questionId: 'q1', answer: 'A', version: 1 },
      { questionId: 'q2', answer: 'B', version: 1 },
    ])
    const texts = ['A', 'B typed on', 'C']
    const { saved: next, refresh } = mergeSaved(
      ['q1', 'q2', 'q3'],
      texts,
      saved,
      [
        { questionId: 'q1', answer: 'A by a colleague', version: 2 },
        { questionId: 'q2', answer: 'Theirs', version: 2 },
        { questionId: 'q3', answer: 'C', version: 1 },
      ],
      ['q2'],
    )
    expect(refresh).toEqual([{ index: 0, text: 'A by a colleague' }])
    expect(next.q1).toEqual({ text: 'A by a colleague', version: 2 })
    expect(next.q2).toEqual({ text: 'B', version: 1 })
    expect(next.q3).toEqual({ text: 'C', version: 1 })
  })
})
