// The picker's TypeScript mirror gives exactly the roles the wasm core allows.

import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'

import { assignableRoles as coreAssignableRoles, initSync } from '../wasm/core_wasm.js'
import { ALL_ROLES, assignableRoles, mainRoleLabel, roleLabel, roleLabeller } from './roles'

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../wasm/core_wasm_bg.wasm', import.meta.url)) })
})

describe('role picker rule', () => {
  it('matches the core for every caller', () => {
    for (const caller of ALL_ROLES) {
      expect(assignableRoles(caller)).toEqual(coreAssignableRoles(caller))
    }
  })

  it('offers an admin only Standard and Staff', () => {
    expect(assignableRoles('ADMIN').map(roleLabel)).toEqual(['Standard', 'Staff'])
    expect(assignableRoles('SUPERADMIN')).toHaveLength(5)
  })
})

describe('role labels', () => {
  it('names every role in the main area as the spec does', () => {
    expect(ALL_ROLES.map(mainRoleLabel)).toEqual(['Teacher', 'Admin', 'Superadmin / provider staff', 'Organisation Admin', 'MAT User'])
  })

  it('keeps the leaders area its own labels', () => {
    expect(ALL_ROLES.map(roleLabel)).toEqual(['Standard', 'Staff', 'Superadmin', 'Admin', 'MAT Admin'])
    expect(roleLabeller('leaders')('ORG_ADMIN')).toBe('Admin')
    expect(roleLabeller('main')('ORG_ADMIN')).toBe('Organisation Admin')
  })
})
