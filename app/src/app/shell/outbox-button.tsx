//! The header's Outbox: how many captured things are still on this device waiting for the
//! server (its accessible name carries the count), and a panel listing each as Waiting,
//! Sending n%, Sent or Stuck (with the server's reason, Retry and Discard).

import { CloudUpload } from 'lucide-react'
import { useEffect, useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { formatDate } from '@/lib/format-date'
import { outbox, useOutboxItems, type OutboxItem } from '@/lib/outbox/use-outbox'

/** "Outbox, 2 waiting" / "Outbox, nothing waiting". */
export function outboxLabel(waiting: number): string {
  return waiting === 0 ? 'Outbox, nothing waiting' : `Outbox, ${waiting} waiting`
}

/** What the panel says of an item's state. */
export function stateText(item: Pick<OutboxItem, 'state' | 'progress'>): string {
  switch (item.state) {
    case 'waiting':
      return 'Waiting'
    case 'sending':
      return `Sending ${Math.round((item.progress ?? 0) * 100)}%`
    case 'sent':
      return 'Sent'
    case 'stuck':
      return 'Stuck'
  }
}

function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine)
  useEffect(() => {
    const update = () => setOnline(navigator.onLine)
    window.addEventListener('online', update)
    window.addEventListener('offline', update)
    return () => {
      window.removeEventListener('online', update)
      window.removeEventListener('offline', update)
    }
  }, [])
  return online
}

export function OutboxButton() {
  const items = useOutboxItems()
  const [open, setOpen] = useState(false)
  const waiting = items.filter((item) => item.state !== 'sent').length
  const stuck = items.some((item) => item.state === 'stuck')
  return (
    <>
      <Button variant="ghost" size="sm" className="relative px-2" aria-label={outboxLabel(waiting)} onClick={() => setOpen(true)}>
        <CloudUpload aria-hidden="true" className="size-5" />
        {waiting > 0 && (
          <span
            aria-hidden="true"
            className={
              'absolute -top-0.5 -right-0.5 inline-flex min-w-5 items-center justify-center rounded-full px-1 text-xs font-semibold ' +
              (stuck ? 'bg-destructive text-white' : 'bg-primary text-primary-foreground')
            }
          >
            {waiting}
          </span>
        )}
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-h-[90dvh] overflow-y-auto">
          <OutboxPanel items={items} />
        </DialogContent>
      </Dialog>
    </>
  )
}

function OutboxPanel({ items }: { items: OutboxItem[] }) {
  const online = useOnline()
  const newestFirst = [...items].reverse()
  const anySent = items.some((item) => item.state === 'sent')
  return (
    <>
      <DialogTitle className="text-lg font-semibold">Outbox</DialogTitle>
      <DialogDescription className="mt-1 text-sm text-muted-foreground">
        What you capture is kept on this device until Voicemark has it, and sent by itself.
      </DialogDescription>
      {!online && (
        <div className="mt-4">
          <Alert tone="info">You are offline. Everything waiting here will be sent when the connection returns.</Alert>
        </div>
      )}
      {newestFirst.length === 0 ? (
        <p className="mt-4 text-sm text-muted-foreground">Nothing is waiting to be sent.</p>
      ) : (
        <ul aria-label="Items in the outbox" className="mt-4 divide-y divide-border rounded-md border border-border">
          {newestFirst.map((item) => (
            <OutboxRow key={item.id} item={item} />
          ))}
        </ul>
      )}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        {anySent && (
          <Button variant="outline" onClick={() => void outbox.clearSent()}>
            Clear sent
          </Button>
        )}
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
      </div>
    </>
  )
}

function OutboxRow({ item }: { item: OutboxItem }) {
  const state = stateText(item)
  return (
    <li className="space-y-2 p-3 text-sm" aria-label={`${item.title}: ${state}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="font-medium break-words">{item.title}</span>
        <span
          className={
            item.state === 'stuck'
              ? 'font-semibold text-destructive'
              : item.state === 'sent'
                ? 'text-success'
                : 'text-muted-foreground'
          }
        >
          {state}
        </span>
      </div>
      <p className="text-xs text-muted-foreground">Saved {formatDate(item.createdAt, true)}</p>
      {item.state === 'sending' && (
        <div className="h-1.5 overflow-hidden rounded bg-muted" aria-hidden="true">
          <div className="h-full bg-primary" style={{ width: `${Math.round((item.progress ?? 0) * 100)}%` }} />
        </div>
      )}
      {item.state === 'stuck' && (
        <>
          <p className="text-destructive">{item.reason}</p>
          <div className="flex gap-2">
            <Button size="sm" variant="outline" onClick={() => void outbox.retry(item.id)} aria-label={`Retry ${item.title}`}>
              Retry
            </Button>
            <Button size="sm" variant="outline" onClick={() => void outbox.discard(item.id)} aria-label={`Discard ${item.title}`}>
              Discard
            </Button>
          </div>
        </>
      )}
      {item.state === 'sent' && item.answer && (
        <details>
          <summary className="cursor-pointer">Show the answer</summary>
          <p className="mt-2 whitespace-pre-wrap">{item.answer}</p>
        </details>
      )}
    </li>
  )
}
