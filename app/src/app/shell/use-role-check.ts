//! Asks the wasm core's `hasRole` once per role list the menus use, and answers synchronously.

import { useQuery } from '@tanstack/react-query'

import type { UserRole } from '@/lib/auth-client'
import { getCore } from '@/lib/core'

import { ROLE_LISTS, roleListKey } from './navigation'

export type RoleCheck = (roles: UserRole[]) => boolean

function useRoleAnswers(role: UserRole | undefined) {
  return useQuery({
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
}

/** `(roles) => allowed`, or `undefined` until the core has answered (so menus never flicker). */
export function useRoleCheck(role: UserRole | undefined): RoleCheck | undefined {
  const { data } = useRoleAnswers(role)
  if (!data) return undefined
  return (roles) => data.get(roleListKey(roles)) ?? false
}

/**
 * Whether the core has answered the role checks of `role` (or failed to: the shell then
 * draws without the role's menus rather than wait for ever).
 */
export function useRoleCheckSettled(role: UserRole | undefined): boolean {
  const { isSuccess, isError } = useRoleAnswers(role)
  return !role || isSuccess || isError
}
