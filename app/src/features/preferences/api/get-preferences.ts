//! `preferences.get`: the public e-mail preferences of the address a link's token was sent to.

import { useRpcQuery } from '@/lib/rpc'

export const usePreferences = (token: string) => useRpcQuery('preferences.get', { token }, { retry: false })
