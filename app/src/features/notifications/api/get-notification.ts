//! `notification.get`: one notification with its counts (the view page and the editor).

import { useRpcQuery } from '@/lib/rpc'

export const useNotification = (id: string) => useRpcQuery('notification.get', { id }, { retry: false })
