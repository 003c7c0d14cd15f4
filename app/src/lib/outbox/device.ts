//! Leaving a shared device clean: at sign-out everything Voicemark kept for the user goes —
//! their outbox and recordings (IndexedDB), what the app kept in this browser's storage, and
//! every cache but the service worker's copy of the app itself (which holds no one's data).

import { forgetUser } from './db'
import { outbox } from './outbox'

/** The browser-storage keys the app writes all start with this. */
export const STORAGE_PREFIX = 'voicemark.'
/** Workbox's precache: the app's own files, kept so the app still opens offline. */
const APP_CACHE_PREFIX = 'workbox-precache'

export async function clearDevice(userId: string | null): Promise<void> {
  outbox.setUser(null)
  const steps: Promise<unknown>[] = []
  if (userId) steps.push(forgetUser(userId))
  for (const storage of [localStorage, sessionStorage]) {
    for (const key of Object.keys(storage)) if (key.startsWith(STORAGE_PREFIX)) storage.removeItem(key)
  }
  if (typeof caches !== 'undefined') {
    steps.push(
      caches.keys().then((names) => Promise.all(names.filter((n) => !n.startsWith(APP_CACHE_PREFIX)).map((n) => caches.delete(n)))),
    )
  }
  await Promise.allSettled(steps)
}
