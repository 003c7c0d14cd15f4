//! `admin.importPupils`: a CSV file's text; a refusal lists every bad line under `csv`.

import { useQueryClient } from '@tanstack/react-query'
import { TRPCClientError } from '@trpc/client'

import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export function useImportPupils() {
  const queryClient = useQueryClient()
  return useRpcMutation('admin.importPupils', { onSuccess: () => invalidateRpc(queryClient, 'admin.') })
}

/** Every message of one field of a BAD_REQUEST answer (the CSV import lists each bad line). */
export function allFieldMessages(error: unknown, field: string): string[] {
  if (!(error instanceof TRPCClientError)) return []
  const data = error.data as { zodError?: { fieldErrors?: Record<string, string[] | undefined> } | null } | undefined
  return data?.zodError?.fieldErrors?.[field] ?? []
}
