//! Manage Users' data: `user.list`, `leader.getSeatInfo` (query keys are the rpc paths, so a
//! plan change refreshes them), `user.listAll` (superadmin) and the mutations, each
//! refreshing the lists and the seats. Both lists come a page at a time (`useRpcPages`).

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { fitsChars, MAX_EMAIL_CHARS, MAX_PERSON_NAME_CHARS, tooLongMessage } from '@/generated/limits'
import { invalidateRpc, useRpcMutation, useRpcPages, useRpcQuery } from '@/lib/rpc'

export const useUserList = (search: string | null) =>
  useRpcPages('user.list', { search }, (page) => page.nextCursor)
export const useSeatInfo = (enabled = true) => useRpcQuery('leader.getSeatInfo', undefined, { enabled })
export const useAllUsers = (input: { search: string | null; schoolId: string | null; role: string | null }) =>
  useRpcPages('user.listAll', input, (answer) => answer.page.nextCursor)

function useRefresh() {
  const queryClient = useQueryClient()
  return () =>
    Promise.all([
      invalidateRpc(queryClient, 'user.list'),
      invalidateRpc(queryClient, 'leader.getSeatInfo'),
    ])
}

export function useInviteUser() {
  const refresh = useRefresh()
  return useRpcMutation('user.invite', { onSuccess: refresh })
}
export function useInviteFromCsv() {
  const refresh = useRefresh()
  return useRpcMutation('user.inviteFromCsv', { onSuccess: refresh })
}
export function useResendInvite() {
  return useRpcMutation('user.resendInvite')
}
export function useRevokeInvite() {
  const refresh = useRefresh()
  return useRpcMutation('user.revokeInvite', { onSuccess: refresh })
}
export function useSetRole() {
  const refresh = useRefresh()
  return useRpcMutation('user.setRole', { onSuccess: refresh })
}
export function useSetDisabled() {
  const refresh = useRefresh()
  return useRpcMutation('user.setDisabled', { onSuccess: refresh })
}
export function useSetLeader() {
  const refresh = useRefresh()
  return useRpcMutation('user.setLeader', { onSuccess: refresh })
}

export const inviteSchema = z.object({
  forename: z.string().trim().min(1, 'Enter a forename.').refine((v) => fitsChars(v, MAX_PERSON_NAME_CHARS), tooLongMessage(MAX_PERSON_NAME_CHARS)),
  surname: z.string().trim().min(1, 'Enter a surname.').refine((v) => fitsChars(v, MAX_PERSON_NAME_CHARS), tooLongMessage(MAX_PERSON_NAME_CHARS)),
  email: z.string().trim().min(1, 'Enter a valid e-mail address.').refine((v) => fitsChars(v, MAX_EMAIL_CHARS), tooLongMessage(MAX_EMAIL_CHARS)),
  role: z.string(),
  schoolId: z.string(),
})

export type InviteValues = z.infer<typeof inviteSchema>
