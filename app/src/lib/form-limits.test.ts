import { describe, expect, it } from 'vitest'
import { z } from 'zod'

import { MAX_TITLE_CHARS } from '@/generated/limits'

import { isSentence, optionalText, requiredText, splitTags, tagsText } from './form-limits'

const messages = (schema: z.ZodTypeAny, value: unknown) => {
  const result = schema.safeParse(value)
  return result.success ? [] : result.error.issues.map((issue) => issue.message)
}

describe('requiredText', () => {
  const title = requiredText('Enter a title.', MAX_TITLE_CHARS)

  it('refuses a blank value with its own message', () => {
    expect(messages(title, '   ')).toEqual(['Enter a title.'])
  })

  it("refuses one character more than the server's limit with the server's message", () => {
    expect(messages(title, 'a'.repeat(MAX_TITLE_CHARS))).toEqual([])
    expect(messages(title, 'a'.repeat(MAX_TITLE_CHARS + 1))).toEqual(['Use at most 200 characters.'])
    expect(messages(title, 'a'.repeat(300))).toEqual(['Use at most 200 characters.'])
  })

  it('counts as the server does: trimmed, by code point', () => {
    expect(messages(title, ` ${'a'.repeat(MAX_TITLE_CHARS)} `)).toEqual([])
    // 200 emoji are 400 UTF-16 units but 200 characters.
    expect(messages(title, '😀'.repeat(MAX_TITLE_CHARS))).toEqual([])
  })
})

describe('optionalText', () => {
  it('takes a blank value and refuses a long one', () => {
    expect(messages(optionalText(5), '')).toEqual([])
    expect(messages(optionalText(5), 'abcdef')).toEqual(['Use at most 5 characters.'])
  })
})

describe('tagsText', () => {
  const tags = tagsText(3, 5)
  it('splits on commas and drops blanks', () => {
    expect(splitTags(' a, ,b ,c,')).toEqual(['a', 'b', 'c'])
    expect(messages(tags, 'a, b, c')).toEqual([])
  })
  it('refuses too many tags and a tag too long, both at once', () => {
    expect(messages(tags, 'a,b,c,dddddd')).toEqual(['Use at most 3 tags.', 'Use at most 5 characters for each tag.'])
  })
})

describe('every message is a sentence with a full stop', () => {
  it('holds for the shared messages', () => {
    const all = [
      ...messages(requiredText('Enter a title.', 2), ''),
      ...messages(requiredText('Enter a title.', 2), 'abc'),
      ...messages(tagsText(1, 1), 'aa,b'),
    ]
    expect(all.length).toBe(4)
    for (const message of all) expect(isSentence(message), message).toBe(true)
    expect(isSentence('Forename is required')).toBe(false)
  })
})
