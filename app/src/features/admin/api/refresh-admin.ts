//! After any Manage School save: every `admin.*` list is refreshed (a save may change counts
//! on several tabs).

import { useQueryClient } from '@tanstack/react-query'

import { invalidateRpc } from '@/lib/rpc'

export function useRefreshAdmin() {
  const queryClient = useQueryClient()
  return () => invalidateRpc(queryClient, 'admin.')
}
