//! Manage School's calls: the `admin.*` queries and the cache refresh after a save.

import { useQueryClient } from '@tanstack/react-query'
import { TRPCClientError } from '@trpc/client'

import { useRpcQuery } from '@/lib/rpc'

export const usePupils = (search: string, page: number) =>
  useRpcQuery('admin.listPupils', { search: search.trim() || null, page }, { placeholderData: (previous) => previous })
export const useStaff = () => useRpcQuery('admin.listStaff')
export const useClasses = () => useRpcQuery('admin.listClasses')
export const useYearGroups = () => useRpcQuery('admin.listYearGroups')
export const useFormGroups = () => useRpcQuery('admin.listFormGroups')
export const useSchoolSettings = () => useRpcQuery('admin.schoolSettings', undefined, { retry: false })

/** Refreshes every `admin.*` list (a save may change counts on several tabs). */
export function useRefreshAdmin() {
  const queryClient = useQueryClient()
  return () =>
    queryClient.invalidateQueries({
      predicate: (query) => {
        const [root, path] = query.queryKey as [unknown, unknown]
        return root === 'rpc' && typeof path === 'string' && path.startsWith('admin.')
      },
    })
}

/** Every message of one field of a BAD_REQUEST answer (the CSV import lists each bad line). */
export function allFieldMessages(error: unknown, field: string): string[] {
  if (!(error instanceof TRPCClientError)) return []
  const data = error.data as { zodError?: { fieldErrors?: Record<string, string[] | undefined> } | null } | undefined
  return data?.zodError?.fieldErrors?.[field] ?? []
}
