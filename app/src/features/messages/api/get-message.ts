//! `notification.publicMessage`: the message a signed link from an e-mail leads to.

import { useRpcQuery } from '@/lib/rpc'

export const usePublicMessage = (token: string) =>
  useRpcQuery('notification.publicMessage', { token }, { retry: false })
