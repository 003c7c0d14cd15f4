import { describe, expect, it, vi } from 'vitest'

import { currentUpdate, watchForUpdates, type UpdatableWorker } from './pwa'

/** A stand-in for workbox-window's Workbox: fires what the browser would. */
function fakeWorkbox() {
  const listeners: Record<string, (() => void)[]> = {}
  const skipped = vi.fn()
  const workbox: UpdatableWorker & { fire(type: string): void } = {
    addEventListener: (type, listener) => void (listeners[type] ??= []).push(listener),
    messageSkipWaiting: skipped,
    fire: (type) => listeners[type]?.forEach((listener) => listener()),
  }
  return { workbox, skipped }
}

describe('a new version of the app', () => {
  it('is offered only once it waits, and takes over only after Reload', () => {
    const { workbox, skipped } = fakeWorkbox()
    const reload = vi.fn()
    watchForUpdates(workbox, reload)
    expect(currentUpdate()).toBeNull()

    workbox.fire('waiting')
    const apply = currentUpdate()
    expect(apply).toBeTypeOf('function')
    // Nothing happens by itself: no skip, no reload.
    expect(skipped).not.toHaveBeenCalled()
    expect(reload).not.toHaveBeenCalled()

    apply?.()
    expect(skipped).toHaveBeenCalledTimes(1)
    expect(reload).not.toHaveBeenCalled()
    workbox.fire('controlling')
    expect(reload).toHaveBeenCalledTimes(1)
  })
})
