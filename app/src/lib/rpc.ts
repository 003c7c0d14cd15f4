//! The tRPC client (`/api/trpc`, batched, superjson) behind a small typed API keyed by
//! procedure path (types from the server's generated `src/generated/rpc-types.ts`), plus TanStack Query hooks and the per-field errors of BAD_REQUEST answers.

import { useMutation, useQuery, type QueryClient, type UseMutationOptions, type UseQueryOptions } from '@tanstack/react-query'
import { createTRPCUntypedClient, httpBatchLink, TRPCClientError } from '@trpc/client'
import type { AnyRouter } from '@trpc/server'
import superjson from 'superjson'

import { MAX_BATCH_CALLS } from '@/generated/limits'
import type { RpcInput, RpcOutput, RpcPath, RpcProcedures } from '@/generated/rpc-types'

export type { RpcInput, RpcOutput, RpcPath }
export type QueryPath = { [P in RpcPath]: RpcProcedures[P]['kind'] extends 'query' ? P : never }[RpcPath]
export type MutationPath = {
  [P in RpcPath]: RpcProcedures[P]['kind'] extends 'mutation' ? P : never
}[RpcPath]

const client = createTRPCUntypedClient<AnyRouter>({
  // The server refuses a batch of more than MAX_BATCH_CALLS calls; the link splits larger ones.
  links: [httpBatchLink({ url: '/api/trpc', transformer: superjson, maxItems: MAX_BATCH_CALLS })],
})

/** Runs the query at `path`. */
export function rpcQuery<P extends QueryPath>(path: P, input?: RpcInput<P>): Promise<RpcOutput<P>> {
  return client.query(path, input) as Promise<RpcOutput<P>>
}

/** Runs the mutation at `path`. */
export function rpcMutation<P extends MutationPath>(path: P, input: RpcInput<P>): Promise<RpcOutput<P>> {
  return client.mutation(path, input) as Promise<RpcOutput<P>>
}

/** The TanStack Query key of a procedure (and its input, when it has one). */
export function rpcKey(path: RpcPath, input?: unknown): readonly unknown[] {
  return input === undefined ? ['rpc', path] : ['rpc', path, input]
}

type QueryExtras<P extends QueryPath> = Omit<
  UseQueryOptions<RpcOutput<P>, Error, RpcOutput<P>>,
  'queryKey' | 'queryFn'
>

/** `useQuery` for the procedure at `path`. */
export function useRpcQuery<P extends QueryPath>(path: P, input?: RpcInput<P>, options?: QueryExtras<P>) {
  return useQuery({
    queryKey: rpcKey(path, input),
    queryFn: () => rpcQuery(path, input),
    ...options,
  })
}

type MutationExtras<P extends MutationPath> = Omit<
  UseMutationOptions<RpcOutput<P>, Error, RpcInput<P>>,
  'mutationFn'
>

/** `useMutation` for the procedure at `path` (the base of each feature's `api/` mutation hook). */
export function useRpcMutation<P extends MutationPath>(path: P, options?: MutationExtras<P>) {
  return useMutation<RpcOutput<P>, Error, RpcInput<P>>({
    mutationFn: (input) => rpcMutation(path, input),
    ...options,
  })
}

/** Refreshes every cached query whose procedure path starts with `prefix` (e.g. `admin.`). */
export function invalidateRpc(queryClient: QueryClient, prefix: string) {
  return queryClient.invalidateQueries({
    predicate: (query) => {
      const [root, path] = query.queryKey as [unknown, unknown]
      return root === 'rpc' && typeof path === 'string' && path.startsWith(prefix)
    },
  })
}

/** The error data a T3-style server adds: the tRPC code and zod's flattened errors. */
interface ErrorData {
  code?: string
  httpStatus?: number
  zodError?: { formErrors?: string[]; fieldErrors?: Record<string, string[] | undefined> } | null
}

/** The first message per field of a BAD_REQUEST answer (empty for any other error). */
export function fieldErrors(error: unknown): Record<string, string> {
  const data = errorData(error)
  const out: Record<string, string> = {}
  for (const [field, messages] of Object.entries(data?.zodError?.fieldErrors ?? {})) {
    if (messages?.[0]) out[field] = messages[0]
  }
  return out
}

/** The tRPC error code (`BAD_REQUEST`, `UNAUTHORIZED`, ...) of `error`, if it is one. */
export function errorCode(error: unknown): string | undefined {
  return errorData(error)?.code
}

function errorData(error: unknown): ErrorData | undefined {
  if (error instanceof TRPCClientError) return (error.data ?? undefined) as ErrorData | undefined
  if (error && typeof error === 'object' && 'data' in error) return (error as { data: ErrorData }).data
  return undefined
}

/** A message for the user: the server's own message for a field-less failure. */
export function errorMessage(error: unknown): string {
  const data = errorData(error)
  const formError = data?.zodError?.formErrors?.[0]
  if (formError) return formError
  if (data?.code === 'BAD_REQUEST' && Object.keys(fieldErrors(error)).length > 0)
    return 'Please correct the highlighted fields.'
  if (error instanceof Error && error.message && !error.message.startsWith('['))
    return error.message
  return 'Something went wrong, please try again.'
}
