// The /schools form checks what the server checks (organisation.save), with its messages,
// and asks for a trust name only when "New trust…" is chosen.

import { describe, expect, it } from 'vitest'

import { NEW_TRUST, organisationSchema } from './organisations'

const valid = {
  name: 'Hillcrest School',
  orgType: 'SCHOOL',
  postcode: 'HC5 6EF',
  seats: '30',
  plan: 'Pro',
  redirectToLeaders: false,
  trust: '',
  newTrustName: '',
}

function messages(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  return (result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message])
}

describe('the organisation form', () => {
  it('accepts a complete organisation', () => {
    expect(organisationSchema.safeParse(valid).success).toBe(true)
    expect(organisationSchema.safeParse({ ...valid, seats: '', postcode: '' }).success).toBe(true)
  })

  it("gives the server's messages for bad fields", () => {
    const result = organisationSchema.safeParse({ ...valid, name: ' ', postcode: '<b>', seats: '200000', plan: 'Gold' })
    expect(messages(result)).toEqual([
      ['name', "Enter the organisation's name."],
      ['postcode', 'Enter a valid postcode.'],
      ['seats', 'Enter a number of seats from 0 to 100000.'],
      ['plan', 'Choose Basic, Pro or Enterprise.'],
    ])
  })

  it('needs a name for a new trust only', () => {
    expect(messages(organisationSchema.safeParse({ ...valid, trust: NEW_TRUST }))).toEqual([
      ['newTrustName', "Enter the new trust's name."],
    ])
    expect(organisationSchema.safeParse({ ...valid, trust: NEW_TRUST, newTrustName: 'Hill Trust' }).success).toBe(true)
  })
})
