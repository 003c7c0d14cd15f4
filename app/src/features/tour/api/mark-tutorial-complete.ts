//! `user.markTutorialComplete` with the spec's "true flag" (section 7); the caller reloads
//! the page once it succeeds.

import { useRpcMutation } from '@/lib/rpc'

export function useMarkTutorialComplete() {
  return useRpcMutation('user.markTutorialComplete')
}
