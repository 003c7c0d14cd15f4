import { describe, expect, it } from 'vitest'

import { pupilWords } from './pupil-word'
import { USER_STATUSES, userStatusLabel, userStatusTone } from './user-status'

describe('user status', () => {
  it('is exactly active, inactive, pending, each with a label', () => {
    expect(USER_STATUSES).toEqual(['active', 'inactive', 'pending'])
    expect(USER_STATUSES.map(userStatusLabel)).toEqual(['Active', 'Inactive', 'Pending'])
    expect(USER_STATUSES.map(userStatusTone)).toEqual(['success', 'secondary', 'warning'])
  })
})

describe('pupilWords', () => {
  it('reads learners for a business and pupils otherwise', () => {
    expect(pupilWords('BUSINESS')).toEqual({ one: 'learner', many: 'learners', One: 'Learner', Many: 'Learners' })
    expect(pupilWords('SCHOOL').many).toBe('pupils')
    expect(pupilWords(null).Many).toBe('Pupils')
  })
})
