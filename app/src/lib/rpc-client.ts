//! The tRPC client itself (`/api/trpc`, batched, superjson). `rpc.ts` loads it with the first
//! call, so the entry, and with it /login, carries neither `@trpc/client` nor superjson.

import { createTRPCUntypedClient, httpBatchLink } from '@trpc/client'
import type { AnyRouter } from '@trpc/server'
import superjson from 'superjson'

import { MAX_BATCH_CALLS } from '@/generated/limits'

export const client = createTRPCUntypedClient<AnyRouter>({
  // The server refuses a batch of more than MAX_BATCH_CALLS calls; the link splits larger ones.
  links: [httpBatchLink({ url: '/api/trpc', transformer: superjson, maxItems: MAX_BATCH_CALLS })],
})
