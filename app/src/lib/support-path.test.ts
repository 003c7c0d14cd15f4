import { describe, expect, it } from 'vitest'

import { supportPath } from './support-path'

describe('supportPath', () => {
  it('keeps the user in their area', () => {
    expect(supportPath('/leaders/tasks', 'TEACHER')).toBe('/leaders/support')
    expect(supportPath('/leaders', 'ORG_ADMIN')).toBe('/leaders/support')
    expect(supportPath('/feedback', 'ADMIN')).toBe('/support')
    expect(supportPath('/', 'SUPERADMIN')).toBe('/support')
  })

  it('has a teacher of the pupil area write instead of leaving it', () => {
    expect(supportPath('/', 'TEACHER')).toBeNull()
    expect(supportPath('/leadersx', 'MAT_USER')).toBeNull()
  })
})
