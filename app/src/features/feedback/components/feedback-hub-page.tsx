//! `/feedback`: the Feedback Hub — work handed in and waiting for feedback, oldest first,
//! filtered by assignment or class — with the marking panel beside the list. Marking flows
//! from the keyboard (lib/hub-keys.ts): J / K move, 1 2 3 choose the sentiment, Ctrl+Enter
//! marks and puts the focus in the next submission's feedback box. Choosing several
//! submissions (checkboxes, Shift-click for a range) gives them one comment at once.
//! Each list shows its first page (500 waiting, 200 marked); "Show more …" adds the next.

import { Keyboard, MessageSquareText } from 'lucide-react'
import { useCallback, useEffect, useId, useRef, useState } from 'react'
import { Link } from 'react-router'

import { CommentBankSuggestion } from '@/components/comment-bank-field'
import { EmptyState } from '@/components/empty-state'
import { PageTitle } from '@/components/page-title'
import { ShowMore } from '@/components/show-more'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Label, Select } from '@/components/ui/input'
import { FIRST_FRAMES } from '@/lib/first-frame'
import { formatDate } from '@/lib/format-date'
import { errorMessage } from '@/lib/rpc'
import { cn } from '@/lib/utils'

import { useFeedbackHub, useMoreOfHub, type HubFilters } from '../api/list-feedback'
import { useMarksOnTheirWay } from '../api/mark-submission'
import { hubKeyAction, range, step } from '../lib/hub-keys'
import { BulkPanel } from './bulk-panel'
import { HeldFeedback } from './held-feedback'
import { KeysDialog } from './keys-dialog'
import { MarkedPanel } from './marked-panel'
import { MarkingPanel, type PanelControls } from './marking-panel'
import { releaseText, SENTIMENT_LABEL } from './release-text'

export function FeedbackHubPage() {
  const [filters, setFilters] = useState<HubFilters>({ notificationId: null, classId: null })
  const [selected, setSelected] = useState<string | null>(null)
  /** A marked submission opened from 'Marked (N)' (the panel shows it instead of marking). */
  const [openMarked, setOpenMarked] = useState<string | null>(null)
  const [focusFeedback, setFocusFeedback] = useState(false)
  const [chosen, setChosen] = useState<Set<string>>(() => new Set())
  const anchor = useRef<string | null>(null)
  const [showKeys, setShowKeys] = useState(false)
  const hub = useFeedbackHub(filters)
  const moreWaiting = useMoreOfHub(filters, 'WAITING')
  const moreMarked = useMoreOfHub(filters, 'MARKED')
  const onTheirWay = useMarksOnTheirWay(hub.dataUpdatedAt)
  const loaded = onceEach([...(hub.data?.items ?? []), ...moreWaiting.pages.flatMap((page) => page.waiting)])
  const items = loaded.filter((item) => !onTheirWay.has(item.submissionId))
  // Those on their way are still counted by the server until its list is fetched again.
  const waitingCount = Math.max(items.length, (hub.data?.waitingCount ?? 0) - (loaded.length - items.length))
  const ids = items.map((item) => item.submissionId)
  const current = items.find((item) => item.submissionId === selected) ?? items[0]
  const bulk = items.filter((item) => chosen.has(item.submissionId))
  const marked = onceEach([...(hub.data?.marked ?? []), ...moreMarked.pages.flatMap((page) => page.marked)])
  const markedCount = Math.max(marked.length, hub.data?.markedCount ?? 0)
  const waitingNext = hub.data?.waitingNext ?? null
  const markedNext = hub.data?.markedNext ?? null
  const shownMarked = marked.find((item) => item.submissionId === openMarked)
  const panel = useRef<PanelControls>(null)
  const list = useRef<HTMLUListElement>(null)
  const notificationFilter = useId()
  const classFilter = useId()

  /**
   * Focuses submission `id` in the list, or (with none) the one open in the panel: at once, so
   * the next key already lands in the list, or after React has drawn it when it is not there yet.
   */
  const focusItem = useCallback((id?: string) => {
    const find = () =>
      list.current?.querySelector<HTMLElement>(id ? `[data-submission="${CSS.escape(id)}"]` : '[aria-current="true"]')
    const now = find()
    if (now) now.focus()
    else requestAnimationFrame(() => find()?.focus())
  }, [])

  const open = (id: string) => {
    setOpenMarked(null)
    if (id === current?.submissionId && !shownMarked) panel.current?.focusFeedback()
    else {
      setSelected(id)
      setFocusFeedback(true)
    }
  }

  const toggle = (id: string, on: boolean, shift: boolean) => {
    const span = shift && anchor.current ? range(ids, anchor.current, id) : [id]
    anchor.current = id
    setChosen((before) => {
      const next = new Set(before)
      for (const each of span) {
        if (on) next.add(each)
        else next.delete(each)
      }
      return next
    })
  }

  const onMarked = () => {
    const at = current ? ids.indexOf(current.submissionId) : -1
    setSelected(ids[at + 1] ?? ids[at - 1] ?? null)
    setFocusFeedback(true)
  }

  // The Hub's keys, read on the whole page (not while a dialog is open: its keys are its own).
  const keys = useRef<(event: KeyboardEvent) => void>(() => undefined)
  keys.current = (event) => {
    if (document.querySelector('[role="dialog"], [role="alertdialog"]')) return
    const inList = list.current?.contains(document.activeElement) ?? false
    const action = hubKeyAction(event, inList)
    if (!action || (!current && action !== 'help')) return
    if (bulk.length > 0 && action !== 'help') return
    if (shownMarked && action !== 'help' && action !== 'next' && action !== 'previous') return
    event.preventDefault()
    switch (action) {
      case 'next':
      case 'previous': {
        setOpenMarked(null)
        const next = step(ids, current?.submissionId, action === 'next' ? 1 : -1)
        setSelected(next ?? null)
        setFocusFeedback(false)
        focusItem(next)
        break
      }
      case 'neutral':
        panel.current?.setSentiment('NEUTRAL')
        break
      case 'positive':
        panel.current?.setSentiment('POSITIVE')
        break
      case 'negative':
        panel.current?.setSentiment('NEGATIVE')
        break
      case 'mark':
        panel.current?.mark()
        break
      case 'dictate':
        panel.current?.dictate()
        break
      case 'help':
        setShowKeys(true)
        break
    }
  }
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event)
    document.addEventListener('keydown', listener)
    return () => document.removeEventListener('keydown', listener)
  }, [])

  return (
    <div className="space-y-6">
      <PageTitle {...FIRST_FRAMES['/feedback']}>
        <Button asChild variant="outline" size="sm">
          <Link to="/feedback/comment-bank">Comment bank</Link>
        </Button>
        <Button variant="outline" size="sm" onClick={() => setShowKeys(true)} aria-keyshortcuts="?">
          <Keyboard aria-hidden="true" className="size-4" />
          Keyboard shortcuts
        </Button>
      </PageTitle>
      <KeysDialog open={showKeys} onOpenChange={setShowKeys} />
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor={notificationFilter}>Assignment</Label>
          <Select
            id={notificationFilter}
            value={filters.notificationId ?? ''}
            onChange={(event) => setFilters((f) => ({ ...f, notificationId: event.target.value || null }))}
          >
            <option value="">All assignments</option>
            {hub.data?.notifications.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor={classFilter}>Class</Label>
          <Select
            id={classFilter}
            value={filters.classId ?? ''}
            onChange={(event) => setFilters((f) => ({ ...f, classId: event.target.value || null }))}
          >
            <option value="">All classes</option>
            {hub.data?.classes.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </div>
      </div>
      {hub.isError && <Alert>The Feedback Hub could not be loaded: {errorMessage(hub.error)}</Alert>}
      {hub.isPending && <p role="status">Loading…</p>}
      <CommentBankSuggestion />
      {hub.data && <HeldFeedback groups={hub.data.held} />}
      {hub.data && items.length === 0 && marked.length === 0 &&
        (filters.notificationId || filters.classId ? (
          <EmptyState
            icon={MessageSquareText}
            title="Nothing is waiting for feedback here"
            action={
              <Button variant="outline" onClick={() => setFilters({ notificationId: null, classId: null })}>
                Show all assignments and classes
              </Button>
            }
          >
            No work handed in for this assignment and class is waiting for your feedback.
          </EmptyState>
        ) : (
          <EmptyState
            icon={MessageSquareText}
            title="Nothing is waiting for feedback"
            action={
              <Button asChild variant="outline">
                <Link to="/notifications/create?type=ASSIGNMENT">New assignment</Link>
              </Button>
            }
          >
            Work pupils hand in for your assignments comes here, oldest first.
          </EmptyState>
        ))}
      {(items.length > 0 || marked.length > 0) && (
        <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className="space-y-6">
          <section aria-labelledby="waiting-heading" className="space-y-2">
            <h2 id="waiting-heading" className="text-lg font-semibold">
              Waiting ({waitingCount})
            </h2>
            {items.length === 0 ? (
              <p className="text-sm text-muted-foreground">Nothing is waiting for feedback.</p>
            ) : (
              <p className="text-sm text-muted-foreground">
                Tick several to give them the same feedback; Shift-click ticks a range.
              </p>
            )}
            <ul ref={list} className="space-y-2" aria-label="Submissions waiting for feedback">
              {items.map((item) => {
                const active = !shownMarked && item.submissionId === current?.submissionId
                const name = `${item.studentForename} ${item.studentSurname}`
                return (
                  <li key={item.submissionId} className="flex items-stretch gap-2">
                    <label className="flex items-center rounded-md px-1 hover:bg-muted">
                      <input
                        type="checkbox"
                        className="size-4 accent-primary"
                        aria-label={`Choose ${name}, ${item.notificationTitle}`}
                        checked={chosen.has(item.submissionId)}
                        onChange={(event) =>
                          toggle(item.submissionId, event.target.checked, (event.nativeEvent as MouseEvent).shiftKey)
                        }
                      />
                    </label>
                    <button
                      type="button"
                      data-submission={item.submissionId}
                      aria-current={active ? 'true' : undefined}
                      onClick={() => open(item.submissionId)}
                      className={cn(
                        'min-w-0 flex-1 rounded-md border border-border px-4 py-3 text-left text-sm hover:bg-muted focus-visible:ring-3 focus-visible:ring-ring focus-visible:outline-none',
                        active && 'border-primary bg-muted',
                      )}
                    >
                      <span className="block font-medium">{name}</span>
                      <span className="block text-muted-foreground">{item.notificationTitle}</span>
                      <span className="block text-muted-foreground">
                        Handed in {formatDate(item.receivedAt, true)}
                        {item.late ? ' (late)' : ''}
                      </span>
                    </button>
                  </li>
                )
              })}
            </ul>
            {(waitingNext !== null || moreWaiting.pages.length > 0) && (
              <ShowMore
                shown={items.length}
                total={waitingCount}
                noun="submissions"
                more={moreWaiting.hasMore(waitingNext)}
                loading={moreWaiting.loading}
                onMore={() => moreWaiting.more(waitingNext)}
              />
            )}
            {moreWaiting.error && <Alert>More submissions could not be loaded: {errorMessage(moreWaiting.error)}</Alert>}
          </section>
          {marked.length > 0 && (
            <section aria-labelledby="marked-list-heading" className="space-y-2">
              <h2 id="marked-list-heading" className="text-lg font-semibold">
                Marked ({markedCount})
              </h2>
              <ul className="space-y-2" aria-label="Marked submissions">
                {marked.map((item) => {
                  const active = item.submissionId === shownMarked?.submissionId
                  return (
                    <li key={item.submissionId}>
                      <button
                        type="button"
                        aria-current={active ? 'true' : undefined}
                        onClick={() => setOpenMarked(item.submissionId)}
                        className={cn(
                          'w-full rounded-md border border-border px-4 py-3 text-left text-sm hover:bg-muted focus-visible:ring-3 focus-visible:ring-ring focus-visible:outline-none',
                          active && 'border-primary bg-muted',
                        )}
                      >
                        <span className="block font-medium">
                          {item.studentForename} {item.studentSurname}
                        </span>
                        <span className="block text-muted-foreground">{item.notificationTitle}</span>
                        <span className="block text-muted-foreground">
                          Marked {formatDate(item.markedAt, true)} · {SENTIMENT_LABEL[item.feedbackSentiment]}
                        </span>
                        <span className="block text-muted-foreground">{releaseText(item.release, item.releaseAt)}</span>
                      </button>
                    </li>
                  )
                })}
              </ul>
              {(markedNext !== null || moreMarked.pages.length > 0) && (
                <ShowMore
                  shown={marked.length}
                  total={markedCount}
                  noun="marked submissions"
                  more={moreMarked.hasMore(markedNext)}
                  loading={moreMarked.loading}
                  onMore={() => moreMarked.more(markedNext)}
                />
              )}
              {moreMarked.error && <Alert>More marked submissions could not be loaded: {errorMessage(moreMarked.error)}</Alert>}
            </section>
          )}
          </div>
          {shownMarked ? (
            <MarkedPanel item={shownMarked} onWithdrawn={() => setOpenMarked(null)} />
          ) : bulk.length > 0 ? (
            <BulkPanel items={bulk} onDone={() => setChosen(new Set())} onClear={() => setChosen(new Set())} />
          ) : current ? (
            <MarkingPanel
              item={current}
              controls={panel}
              focusOnOpen={focusFeedback}
              onMarked={onMarked}
              onLeaveFeedback={() => focusItem()}
            />
          ) : null}
        </div>
      )}
    </div>
  )
}

/** `rows` with each submission once (the first): a row can move up onto an earlier page. */
function onceEach<T extends { submissionId: string }>(rows: T[]): T[] {
  const seen = new Set<string>()
  return rows.filter((row) => !seen.has(row.submissionId) && (seen.add(row.submissionId), true))
}
