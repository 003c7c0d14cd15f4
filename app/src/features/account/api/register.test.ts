// Registration checks the core's name limit (src/generated/limits.ts) with the server's message.

import { describe, expect, it } from 'vitest'

import { MAX_PERSON_NAME_CHARS } from '@/generated/limits'

import { registerSchema } from './register'

describe('registerSchema', () => {
  it('refuses a name past the core limit with the server message', () => {
    const form = {
      forename: 'Ada',
      surname: 'Lovelace',
      email: 'a@b.test',
      password: 'x',
      organisationName: 'Analytical School',
      postcode: 'AB1 2CD',
      orgType: 'SCHOOL' as const,
    }
    expect(registerSchema.safeParse(form).success).toBe(true)
    const result = registerSchema.safeParse({ ...form, surname: 's'.repeat(MAX_PERSON_NAME_CHARS + 1) })
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['surname', `Use at most ${MAX_PERSON_NAME_CHARS} characters.`],
    ])
  })
})
