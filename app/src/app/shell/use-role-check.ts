//! Asks the wasm core's `hasRole` once per role list the menus use, and answers synchronously.

import { useQuery } from '@tanstack/react-query'

import type { UserRole } from '@/lib/auth-client'
import { getCore } from '@/lib/core'

import { ROLE_LISTS, roleListKey } from './navigation'

export type RoleCheck = (roles: UserRole[]) => boolean

/** `(roles) => allowed`, or `undefined` until the core has answered (so menus never flicker). */
export function useRoleCheck(role: UserRole | undefined): RoleCheck | undefined {
  const { data } = useQuery({
    queryKey: ['core', 'hasRole', role],
    enabled: !!role,
    staleTime: Infinity,
    queryFn: async () => {
      const core = getCore()
      const answers = await Promise.all(
        ROLE_LISTS.map(async (list) => [roleListKey(list), await core.hasRole(role!, list)] as const),
      )
      return new Map(answers)
    },
  })
  if (!data) return undefined
  return (roles) => data.get(roleListKey(roles)) ?? false
}
