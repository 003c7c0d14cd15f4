//! Acting in another organisation: `organisation.switch` (MAT users on Switch Organisations,
//! superadmins through the header's picker). After a switch every cached answer belongs to
//! the old school, so all of them are reset and the session (which names the school) is
//! fetched again.

import { useQueryClient } from '@tanstack/react-query'

import { useRpcMutation } from './rpc'
import { SESSION_KEY } from './session'

export function useSwitchOrganisation() {
  const queryClient = useQueryClient()
  return useRpcMutation('organisation.switch', {
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: SESSION_KEY })
      await queryClient.resetQueries({ queryKey: ['rpc'] })
    },
  })
}
