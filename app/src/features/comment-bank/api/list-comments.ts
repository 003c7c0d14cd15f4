//! `commentBank.list`: one part of the bank ('Mine', 'School', or the proposals), searched
//! and sorted; at most 200 comments, with the total that match.

import { keepPreviousData, type QueryClient } from '@tanstack/react-query'

import type { BankCommentView, RpcInput } from '@/generated/rpc-types'
import { invalidateRpc, useRpcQuery } from '@/lib/rpc'

export type { BankCommentView }
export type ListInput = RpcInput<'commentBank.list'>

export const useCommentBank = (input: ListInput) =>
  useRpcQuery('commentBank.list', input, { placeholderData: keepPreviousData })

/** Refreshes every listing and the typeahead after a change. */
export const refreshCommentBank = (client: QueryClient) => invalidateRpc(client, 'commentBank.')
