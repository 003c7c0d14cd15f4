//! React's view of the outbox: the items (re-rendering on each change) and the service that
//! starts it for the signed-in user and wakes it when the connection returns.

import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useSyncExternalStore } from 'react'

import { invalidateRpc } from '../rpc'
import { outbox } from './outbox'
import type { OutboxItem } from './db'

export { outbox }
export type { OutboxItem }

/** The signed-in user's outbox items, oldest first. */
export function useOutboxItems(): OutboxItem[] {
  return useSyncExternalStore(outbox.subscribe, outbox.list, outbox.list)
}

/** Runs the outbox for `userId` while mounted (the signed-in frame mounts it once). */
export function useOutboxService(userId: string | null) {
  const queryClient = useQueryClient()
  useEffect(() => {
    outbox.setUser(userId)
  }, [userId])
  useEffect(() => {
    const kick = () => outbox.kick()
    const onVisible = () => document.visibilityState === 'visible' && kick()
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === 'outbox-flush') kick()
    }
    window.addEventListener('online', kick)
    document.addEventListener('visibilitychange', onVisible)
    navigator.serviceWorker?.addEventListener('message', onMessage)
    const stop = outbox.onSent((item) => {
      for (const prefix of item.refresh) void invalidateRpc(queryClient, prefix)
    })
    return () => {
      window.removeEventListener('online', kick)
      document.removeEventListener('visibilitychange', onVisible)
      navigator.serviceWorker?.removeEventListener('message', onMessage)
      stop()
    }
  }, [queryClient])
}
