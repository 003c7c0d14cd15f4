//! The tRPC client itself (`/api/trpc`, batched, superjson). `rpc.ts` loads it with the first
//! call, so the entry, and with it /login, carries neither `@trpc/client` nor superjson.

import { createTRPCUntypedClient, httpBatchLink, httpLink, splitLink } from '@trpc/client'
import type { AnyRouter } from '@trpc/server'
import superjson from 'superjson'

import { MAX_BATCH_CALLS } from '@/generated/limits'

/**
 * Procedures whose answer is shared by every caller and carries its own ETag (the roster):
 * the server can only tag an answer made of shared parts alone, so these go out on their own
 * and the browser's HTTP cache revalidates them (304) however the page's calls are timed.
 */
const SHARED_ANSWERS = new Set(['school.listStudents'])

export const client = createTRPCUntypedClient<AnyRouter>({
  links: [
    splitLink({
      condition: (op) => SHARED_ANSWERS.has(op.path),
      true: httpLink({ url: '/api/trpc', transformer: superjson }),
      // The server refuses a batch of more than MAX_BATCH_CALLS calls; the link splits larger ones.
      false: httpBatchLink({ url: '/api/trpc', transformer: superjson, maxItems: MAX_BATCH_CALLS }),
    }),
  ],
})
