//! `microsoft.status`: whether Microsoft 365 is set up on the server (and if not, what to
//! set) and whether the caller has connected their account. Tokens never reach the browser.

import { useRpcQuery } from '@/lib/rpc'

export const useMicrosoftStatus = () => useRpcQuery('microsoft.status')
