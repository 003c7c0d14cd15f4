//! The outbox: everything a user captures or writes is saved on the device first (IndexedDB,
//! `db.ts`), then sent (`senders.ts`). It sends by itself when the app starts, when the
//! browser comes back online, when the service worker's Background Sync fires and after a
//! growing wait following a failed try; a refusal retrying cannot fix makes the item Stuck
//! (with the server's sentence, Retry and Discard). Nothing leaves the device until the server
//! has confirmed it. Files and small changes go in two lanes, so a long upload never holds
//! up a mark. Across tabs, a Web Lock per item keeps two tabs from sending the same item.

import { db, type OutboxItem, type OutboxJob } from './db'
import { backoffMs, serverAnswered, verdict } from './retry'

/** How long a sent item stays listed (as Sent) before it is tidied away. */
export const SENT_KEPT_MS = 24 * 60 * 60_000
export const SYNC_TAG = 'voicemark-outbox'

type Lane = 'files' | 'small'
const laneOf = (item: OutboxItem): Lane => (item.job?.type === 'mutation' ? 'small' : 'files')

/** The outcome of `submit`: sent now (with the server's answer), or kept to send later. */
export type SubmitOutcome = { sent: true; answer?: string; id?: string; value?: unknown } | { sent: false }

type Listener = () => void

export class Outbox {
  private userId: string | null = null
  private items: OutboxItem[] = []
  private readonly listeners = new Set<Listener>()
  private readonly running = new Set<Lane>()
  private readonly inFlight = new Set<string>()
  private timer: ReturnType<typeof setTimeout> | undefined
  private readonly controllers = new Map<string, AbortController>()
  private loaded: Promise<void> = Promise.resolve()

  /** Starts (or stops, with `null`) the outbox for the signed-in user. */
  setUser(userId: string | null) {
    if (userId === this.userId) return
    this.userId = userId
    this.items = []
    this.emit()
    if (!userId) return
    this.loaded = this.load(userId).then(() => this.kick())
  }

  /** The current user's items, oldest first (a new array after each change). */
  list = (): OutboxItem[] => this.items

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Items not yet confirmed by the server (waiting, sending or stuck). */
  unsent(): OutboxItem[] {
    return this.items.filter((item) => item.state !== 'sent')
  }

  /** Keeps `job` on the device and sends it when it can. */
  async add(title: string, job: OutboxJob, refresh: string[] = []): Promise<OutboxItem> {
    await this.loaded
    const userId = this.userId
    if (!userId) throw new Error('Sign in to save this.')
    const item: OutboxItem = {
      id: crypto.randomUUID(),
      userId,
      title,
      createdAt: Date.now(),
      state: 'waiting',
      attempts: 0,
      nextAttemptAt: 0,
      job,
      refresh,
    }
    const d = await db()
    await d.put('outbox', item)
    // The stored copy: its files now belong to the outbox, whatever happens to the originals.
    const kept = (await d.get('outbox', item.id)) ?? item
    this.items = [...this.items, kept]
    this.emit()
    return kept
  }

  /**
   * For a form the user is looking at: keeps `job`, tries it at once, and says whether it was
   * sent. A refusal is thrown (the item is removed: the form shows the error where it belongs);
   * a lost connection keeps the item to send later.
   */
  async submit(
    title: string,
    job: OutboxJob,
    refresh: string[] = [],
    onProgress?: (fraction: number) => void,
  ): Promise<SubmitOutcome> {
    const item = await this.add(title, job, refresh)
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      this.registerSync()
      return { sent: false }
    }
    const outcome = await this.attempt(item, true, onProgress)
    if (outcome.kind === 'sent') return { sent: true, answer: outcome.answer, id: outcome.id, value: outcome.value }
    if (outcome.kind === 'refused') {
      await this.remove(item.id)
      throw outcome.error
    }
    this.kick()
    return { sent: false }
  }

  /** Tries a Stuck item again now. */
  async retry(id: string) {
    await this.update(id, { state: 'waiting', reason: undefined, nextAttemptAt: 0, attempts: 0 })
    this.kick()
  }

  /** Deletes an item from the device without sending it. */
  async discard(id: string) {
    this.controllers.get(id)?.abort()
    await this.remove(id)
  }

  /** Sends whatever is due, lane by lane. Safe to call any time. */
  kick = () => {
    if (!this.userId) return
    for (const lane of ['small', 'files'] as const) void this.drain(lane)
  }

  private async drain(lane: Lane) {
    if (this.running.has(lane)) return
    this.running.add(lane)
    try {
      for (;;) {
        if (typeof navigator !== 'undefined' && navigator.onLine === false) {
          this.registerSync()
          return
        }
        const now = Date.now()
        const due = this.items.find(
          (item) => laneOf(item) === lane && item.state === 'waiting' && item.nextAttemptAt <= now && !this.inFlight.has(item.id),
        )
        if (!due) break
        await this.attempt(due, false)
      }
    } finally {
      this.running.delete(lane)
      this.schedule()
    }
  }

  /** Wakes up for the next item whose wait is over. */
  private schedule() {
    clearTimeout(this.timer)
    const next = this.items.filter((i) => i.state === 'waiting').map((i) => i.nextAttemptAt)
    if (next.length === 0) return
    this.timer = setTimeout(this.kick, Math.max(0, Math.min(...next) - Date.now()) + 50)
  }

  private async attempt(
    item: OutboxItem,
    foreground: boolean,
    onProgress?: (fraction: number) => void,
  ): Promise<{ kind: 'sent'; answer?: string; id?: string; value?: unknown } | { kind: 'refused'; error: unknown } | { kind: 'later' }> {
    const run = async () => {
      // Discarded (or replaced by a newer save) between being picked and being started.
      if (!this.items.some((i) => i.id === item.id && i.state === 'waiting')) return { kind: 'later' as const }
      const controller = new AbortController()
      this.controllers.set(item.id, controller)
      this.inFlight.add(item.id)
      await this.update(item.id, { state: 'sending', progress: 0 })
      try {
        const { send } = await import('./senders')
        const current = this.items.find((i) => i.id === item.id) ?? item
        const result = await send(current, {
          foreground,
          signal: controller.signal,
          onProgress: (fraction) => {
            this.setProgress(item.id, fraction)
            onProgress?.(fraction)
          },
          saveResume: (resume) => this.update(item.id, { resume }),
        })
        await this.markSent(item.id, result.answer, result.value)
        return { kind: 'sent' as const, answer: result.answer, id: result.id, value: result.value }
      } catch (error) {
        if (controller.signal.aborted) return { kind: 'later' as const }
        const judged = verdict(error)
        // The user is looking at the form and the server did answer: its answer is shown
        // now (as before the outbox), rather than tried again unseen.
        if (foreground && serverAnswered(error)) return { kind: 'refused' as const, error }
        if (judged.retry) {
          const attempts = item.attempts + 1
          await this.update(item.id, { state: 'waiting', attempts, nextAttemptAt: Date.now() + backoffMs(attempts), progress: undefined })
          this.registerSync()
          return { kind: 'later' as const }
        }
        if (foreground) return { kind: 'refused' as const, error }
        await this.update(item.id, { state: 'stuck', reason: judged.reason, progress: undefined })
        return { kind: 'refused' as const, error }
      } finally {
        this.inFlight.delete(item.id)
        this.controllers.delete(item.id)
      }
    }
    // Another tab sending the same item holds its lock: leave it to that tab.
    if (typeof navigator !== 'undefined' && navigator.locks) {
      const outcome = await navigator.locks.request(`voicemark-outbox:${item.id}`, { ifAvailable: true }, (lock) =>
        lock ? run() : Promise.resolve({ kind: 'later' as const }),
      )
      return outcome
    }
    return run()
  }

  private async markSent(id: string, answer: string | undefined, value: unknown) {
    const item = this.items.find((i) => i.id === id)
    if (!item) return
    // The captured data has reached the server: keep only what the panel shows, and a small
    // change's input, by which pages keep hiding what was sent (the Hub's marked submission)
    // until their own lists have been fetched again.
    const sent: OutboxItem = {
      ...item,
      state: 'sent',
      sentAt: Date.now(),
      progress: undefined,
      reason: undefined,
      resume: undefined,
      job: item.job?.type === 'mutation' ? item.job : null,
      answer,
    }
    await (await db()).put('outbox', sent)
    this.items = this.items.map((i) => (i.id === id ? sent : i))
    this.emit()
    for (const listener of this.sentListeners) listener(sent, value)
  }

  private readonly sentListeners = new Set<(item: OutboxItem, value: unknown) => void>()
  /**
   * Calls `listener` with each item the server confirms and what the server answered (to
   * refresh the pages showing it), before `whenSettled` resolves for it.
   */
  onSent(listener: (item: OutboxItem, value: unknown) => void): () => void {
    this.sentListeners.add(listener)
    return () => this.sentListeners.delete(listener)
  }

  /**
   * Resolves true once item `id` is not being sent (sent, waiting again, Stuck or gone), or
   * false when it still is after `withinMs`.
   */
  whenSettled(id: string, withinMs: number): Promise<boolean> {
    const busy = () => this.items.some((i) => i.id === id && i.state === 'sending')
    if (!busy()) return Promise.resolve(true)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        stop()
        resolve(false)
      }, withinMs)
      const stop = this.subscribe(() => {
        if (busy()) return
        clearTimeout(timer)
        stop()
        resolve(true)
      })
    })
  }

  /** Removes sent items from the list. */
  async clearSent() {
    const d = await db()
    for (const item of this.items.filter((i) => i.state === 'sent')) await d.delete('outbox', item.id)
    this.items = this.items.filter((i) => i.state !== 'sent')
    this.emit()
  }

  private setProgress(id: string, fraction: number) {
    this.items = this.items.map((i) => (i.id === id ? { ...i, progress: fraction } : i))
    this.emit()
  }

  private async update(id: string, patch: Partial<OutboxItem>) {
    const current = this.items.find((i) => i.id === id)
    if (!current) return
    const next = { ...current, ...patch }
    this.items = this.items.map((i) => (i.id === id ? next : i))
    this.emit()
    await (await db()).put('outbox', next)
  }

  private async remove(id: string) {
    await (await db()).delete('outbox', id)
    this.items = this.items.filter((i) => i.id !== id)
    this.emit()
  }

  private async load(userId: string) {
    const d = await db()
    const stored = await d.getAllFromIndex('outbox', 'byUser', userId)
    const now = Date.now()
    const kept: OutboxItem[] = []
    for (const item of stored) {
      if (item.state === 'sent' && (item.sentAt ?? 0) + SENT_KEPT_MS < now) {
        await d.delete('outbox', item.id)
        continue
      }
      // A page closed while sending: that try never finished, so it is waiting again.
      kept.push(item.state === 'sending' ? { ...item, state: 'waiting', progress: undefined, nextAttemptAt: 0 } : item)
    }
    if (this.userId !== userId) return
    this.items = kept.sort((a, b) => a.createdAt - b.createdAt)
    this.emit()
  }

  /** Asks the service worker to wake the app when the connection returns (where supported). */
  private registerSync() {
    if (typeof navigator === 'undefined' || !navigator.serviceWorker?.controller) return
    void navigator.serviceWorker.ready
      .then((registration) => (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } }).sync?.register(SYNC_TAG))
      .catch(() => undefined)
  }

  private emit() {
    for (const listener of this.listeners) listener()
  }
}

/** The page's one outbox. */
export const outbox = new Outbox()
