// The admin forms check the core's per-field limits (src/generated/limits.ts,
// generated from core-wasm/src/limits.rs) with the server's message, before sending.

import { describe, expect, it } from 'vitest'

import { MAX_GROUP_NAME_CHARS, MAX_PERSON_NAME_CHARS, MAX_UPN_CHARS } from '@/generated/limits'

import { groupSchema } from './save-group'
import { pupilSchema } from './save-pupil'
import { staffSchema } from './save-staff'

const pupil = { forename: 'Ada', surname: 'Lovelace', email: '', parentEmail: '', parentLanguage: 'en', upn: '', yearGroupId: '', formGroupId: '', classIds: [] }

function messages(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  return (result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message])
}

describe('form limits', () => {
  it('refuses names and UPNs past the core limits with the server message', () => {
    expect(pupilSchema.safeParse(pupil).success).toBe(true)
    const long = pupilSchema.safeParse({ ...pupil, forename: 'x'.repeat(MAX_PERSON_NAME_CHARS + 1), upn: '1'.repeat(MAX_UPN_CHARS + 1) })
    expect(messages(long)).toEqual([
      ['forename', `Use at most ${MAX_PERSON_NAME_CHARS} characters.`],
      ['upn', `Use at most ${MAX_UPN_CHARS} characters.`],
    ])
    // Trimmed as the server trims, and counted in characters, not UTF-16 units.
    expect(pupilSchema.safeParse({ ...pupil, forename: ` ${'😀'.repeat(MAX_PERSON_NAME_CHARS)} ` }).success).toBe(true)
  })

  it('applies to staff and groups too', () => {
    const staff = { forename: 'x'.repeat(MAX_PERSON_NAME_CHARS + 1), surname: 'S', email: 's@school.test', role: 'TEACHER', classIds: [], activated: true, disabled: false }
    expect(messages(staffSchema.safeParse(staff))[0]?.[0]).toBe('forename')
    expect(groupSchema.safeParse({ name: 'g'.repeat(MAX_GROUP_NAME_CHARS + 1) }).success).toBe(false)
    expect(groupSchema.safeParse({ name: 'g'.repeat(MAX_GROUP_NAME_CHARS) }).success).toBe(true)
  })
})
