//! Every message of one field of a BAD_REQUEST answer (the CSV invite lists each bad line).

import { TRPCClientError } from '@trpc/client'

export function allMessages(error: unknown, field: string): string[] {
  if (!(error instanceof TRPCClientError)) return []
  const data = error.data as { zodError?: { fieldErrors?: Record<string, string[] | undefined> } | null } | undefined
  return data?.zodError?.fieldErrors?.[field] ?? []
}
