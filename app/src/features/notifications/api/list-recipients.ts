//! `notification.recipients`: each pupil with the delivery state and when it was sent.

import { useRpcQuery } from '@/lib/rpc'

export const useRecipients = (id: string) => useRpcQuery('notification.recipients', { id })
