//! The tRPC client (`/api/trpc`, batched, superjson) behind a small typed API keyed by
//! procedure path (types from the server's generated `src/generated/rpc-types.ts`), plus TanStack Query hooks and the per-field errors of BAD_REQUEST answers.
//! The client itself (`rpc-client.ts`) loads with the first call: the entry stays without it.

import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  type QueryClient,
  type UseMutationOptions,
  type UseQueryOptions,
} from '@tanstack/react-query'
import { useState } from 'react'

import type { RpcInput, RpcOutput, RpcPath, RpcProcedures } from '@/generated/rpc-types'

export type { RpcInput, RpcOutput, RpcPath }
export type QueryPath = { [P in RpcPath]: RpcProcedures[P]['kind'] extends 'query' ? P : never }[RpcPath]
export type MutationPath = {
  [P in RpcPath]: RpcProcedures[P]['kind'] extends 'mutation' ? P : never
}[RpcPath]

let clientModule: Promise<typeof import('./rpc-client')> | undefined

/**
 * The tRPC client's module, loaded once. Calls made together still go out in one batch: they
 * all wait for the same promise and reach the client in the same task.
 * The shell's chunk imports `rpc-client.ts` too, so on a signed-in page it loads beside the shell.
 */
export function loadRpcClient() {
  clientModule ??= import('./rpc-client')
  return clientModule
}

/** Runs the query at `path`. */
export async function rpcQuery<P extends QueryPath>(path: P, input?: RpcInput<P>): Promise<RpcOutput<P>> {
  const { client } = await loadRpcClient()
  return client.query(path, input) as Promise<RpcOutput<P>>
}

/** Runs the mutation at `path`. */
export async function rpcMutation<P extends MutationPath>(path: P, input: RpcInput<P>): Promise<RpcOutput<P>> {
  const { client } = await loadRpcClient()
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

/**
 * `useInfiniteQuery` for a paged procedure (docs/scaling.md "Paged lists"): the first page is
 * asked with no `cursor`, each next one with the cursor `next` reads off the page before
 * (none: the last page). A changed `input` (a search) starts again from the first page, the
 * old pages showing meanwhile.
 */
export function useRpcPages<P extends QueryPath>(
  path: P,
  input: Omit<NonNullable<RpcInput<P>>, 'cursor'>,
  next: (page: RpcOutput<P>) => string | null,
  options: { enabled?: boolean } = {},
) {
  return useInfiniteQuery({
    queryKey: [...rpcKey(path, input), 'pages'],
    queryFn: ({ pageParam }) => rpcQuery(path, { ...input, cursor: pageParam } as RpcInput<P>),
    initialPageParam: null as string | null,
    getNextPageParam: (page: RpcOutput<P>) => next(page) ?? undefined,
    placeholderData: keepPreviousData,
    enabled: options.enabled,
  })
}

/**
 * The pages after a first page that another procedure answered (`feedback.list` then
 * `feedback.listMore`, `report.sources` then `report.sourcesMore`; docs/scaling.md "Paged
 * lists"): nothing until `more()` is first called with where the first page ended, then a page
 * each call, asked with `input` and the cursor `next` reads off the page before. A refresh of
 * `path` (or `refetchInterval`) fetches the pages loaded again from where they started; a
 * different `input` (new filters) starts again with none.
 */
export function useMorePages<P extends QueryPath>(
  path: P,
  input: Omit<NonNullable<RpcInput<P>>, 'cursor'>,
  next: (page: RpcOutput<P>) => string | null,
  options: { refetchInterval?: number | false } = {},
) {
  const asked = JSON.stringify(input)
  const [started, setStarted] = useState<{ asked: string; cursor: string } | null>(null)
  const start = started && started.asked === asked ? started.cursor : null
  const query = useInfiniteQuery({
    queryKey: [...rpcKey(path, { ...input, start }), 'pages'],
    queryFn: ({ pageParam }) => rpcQuery(path, { ...input, cursor: pageParam } as RpcInput<P>),
    initialPageParam: start ?? '',
    getNextPageParam: (page: RpcOutput<P>) => next(page) ?? undefined,
    enabled: start !== null,
    refetchInterval: options.refetchInterval,
  })
  return {
    pages: start === null ? [] : (query.data?.pages ?? []),
    loading: query.isFetching,
    error: query.error,
    /** Whether another page follows what is shown, given where the first page ends. */
    hasMore: (firstNext: string | null) => (start === null ? firstNext !== null : query.hasNextPage),
    more: (firstNext: string | null) => {
      if (start === null) {
        if (firstNext) setStarted({ asked, cursor: firstNext })
      } else void query.fetchNextPage()
    },
  }
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

/** The `data` of a `TRPCClientError` (or any error that carries one); read by shape, so this
 * module needs no `@trpc/client` at run time. */
function errorData(error: unknown): ErrorData | undefined {
  if (error && typeof error === 'object' && 'data' in error) {
    return ((error as { data?: ErrorData | null }).data ?? undefined) as ErrorData | undefined
  }
  return undefined
}

/**
 * What each tRPC code means to a user, for an answer that carries no sentence of its own (the
 * server answers a bare code the way tRPC does, e.g. `FORBIDDEN` for a role check). A code is
 * never shown on screen.
 */
const CODE_SENTENCES: Record<string, string> = {
  BAD_REQUEST: 'Please check what you entered and try again.',
  UNAUTHORIZED: 'Your session has ended. Please sign in again.',
  FORBIDDEN: 'Your account does not have permission to do this. Ask your school administrator if you need it.',
  NOT_FOUND: 'This could not be found. It may have been deleted, or the link may be wrong.',
  METHOD_NOT_SUPPORTED: 'Something went wrong, please try again.',
  TIMEOUT: 'This took too long. Please try again.',
  CONFLICT: 'Someone else changed this at the same time. Reload the page and try again.',
  PRECONDITION_FAILED: 'This is not available for your school yet.',
  PAYLOAD_TOO_LARGE: 'This is too large to send.',
  UNPROCESSABLE_CONTENT: 'Please check what you entered and try again.',
  TOO_MANY_REQUESTS: 'Too many attempts. Please wait a minute and try again.',
  CLIENT_CLOSED_REQUEST: 'The request was cancelled. Please try again.',
  INTERNAL_SERVER_ERROR: 'Something went wrong on our side. Please try again.',
  NOT_IMPLEMENTED: 'Something went wrong, please try again.',
  BAD_GATEWAY: 'A service Voicemark relies on is not answering just now. Please try again in a minute.',
  SERVICE_UNAVAILABLE: 'Voicemark is busy just now. Please try again in a minute.',
  GATEWAY_TIMEOUT: 'A service Voicemark relies on is not answering just now. Please try again in a minute.',
}

const GENERIC = 'Something went wrong, please try again.'
const OFFLINE = 'Voicemark could not be reached. Check your connection and try again.'

/** Whether `text` reads like a code or a machine's message rather than a sentence for a person. */
function looksMachineMade(text: string): boolean {
  return /^[A-Z][A-Z0-9_]*$/.test(text) || text.startsWith('[') || text.startsWith('{')
}

/**
 * A message for the user, always a sentence: a form error, the server's own sentence, or what
 * the error's code means; never a code such as `FORBIDDEN`.
 */
export function errorMessage(error: unknown): string {
  const data = errorData(error)
  const formError = data?.zodError?.formErrors?.[0]
  if (formError) return formError
  if (data?.code === 'BAD_REQUEST' && Object.keys(fieldErrors(error)).length > 0)
    return 'Please correct the highlighted fields.'
  const message = error instanceof Error ? error.message.trim() : ''
  if (message && !looksMachineMade(message) && message !== data?.code) {
    // fetch's own words when the network is down ("Failed to fetch", "NetworkError when
    // attempting to fetch resource.", "Load failed") are not for staff.
    if (!data && /failed to fetch|networkerror|load failed|network request failed/i.test(message)) return OFFLINE
    return message
  }
  if (data?.code) return CODE_SENTENCES[data.code] ?? GENERIC
  return GENERIC
}
