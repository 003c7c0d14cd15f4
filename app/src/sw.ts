//! The service worker: precaches the app shell and the wasm cores (Workbox), answers every
//! page navigation with the cached app so it opens with no network, and never touches
//! `/api` (answers holding personal data are not cached). A new version waits until the
//! page says so (the "A new version of Voicemark is ready" prompt, lib/pwa.ts). Background
//! Sync wakes the open app to send its outbox when the connection returns.

import { clientsClaim } from 'workbox-core'
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching'
import { NavigationRoute, registerRoute } from 'workbox-routing'

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string; revision: string | null }> }

// The first install takes charge of the open page at once (nothing older to replace); a later
// version waits for the user's Reload.
clientsClaim()
precacheAndRoute(self.__WB_MANIFEST)
cleanupOutdatedCaches()
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api(\/|$)/] }))

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting()
})

interface SyncEvent extends ExtendableEvent {
  readonly tag: string
}

self.addEventListener('sync', ((event: SyncEvent) => {
  if (event.tag !== 'voicemark-outbox') return
  event.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((clients) => {
      for (const client of clients) client.postMessage({ type: 'outbox-flush' })
    }),
  )
}) as EventListener)
