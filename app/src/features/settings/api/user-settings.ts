//! `user.settings`: the signed-in user's name, e-mail address and e-mail preferences.

import { useRpcQuery } from '@/lib/rpc'

export const useUserSettings = () => useRpcQuery('user.settings')
