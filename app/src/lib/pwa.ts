//! The service worker's registration (through `workbox-window`, loaded after the page), and
//! the news that a new version is ready. A new version never takes over by itself (a
//! dictation or an upload may be under way): the page shows "A new version of Voicemark is
//! ready" with Reload, and only Reload swaps it in.

import { useSyncExternalStore } from 'react'

type Listener = () => void
let applyUpdate: (() => void) | null = null
const listeners = new Set<Listener>()

function setUpdate(apply: (() => void) | null) {
  applyUpdate = apply
  for (const listener of listeners) listener()
}

/** What `watchForUpdates` needs of a `Workbox` (workbox-window). */
export interface UpdatableWorker {
  addEventListener(type: 'waiting' | 'controlling', listener: () => void): void
  messageSkipWaiting(): void
}

/**
 * When a new version waits, offers its Reload (`useUpdateReady`); Reload tells the waiting
 * worker to take over and reloads the page once it has.
 */
export function watchForUpdates(workbox: UpdatableWorker, reload: () => void) {
  workbox.addEventListener('waiting', () =>
    setUpdate(() => {
      workbox.addEventListener('controlling', reload)
      workbox.messageSkipWaiting()
    }),
  )
}

/** The waiting version's Reload, or null (outside React; `useUpdateReady` inside). */
export const currentUpdate = () => applyUpdate

/** Registers `/sw.js` once the page has loaded (production builds only). */
export function registerServiceWorker() {
  if (import.meta.env.DEV || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return
  const start = async () => {
    const { Workbox } = await import('workbox-window')
    const workbox = new Workbox('/sw.js', { scope: '/' })
    watchForUpdates(workbox, () => window.location.reload())
    await workbox.register()
  }
  const run = () => void start().catch(() => undefined)
  if (document.readyState === 'complete') run()
  else window.addEventListener('load', run, { once: true })
}

/** The waiting version's Reload, or null while there is none. */
export function useUpdateReady(): (() => void) | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    currentUpdate,
    () => null,
  )
}
