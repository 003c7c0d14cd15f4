//! One step of the tour: a non-modal dialog next to its element (which gets a ring), or in
//! the middle of the screen when the element is not on this page. Focus moves into it at
//! every step.

import { useEffect, useId, useLayoutEffect, useRef, useState, type Ref } from 'react'

import { Button } from '@/components/ui/button'

import type { TourStep } from '../steps'
import { endLabel, placePopover, type Placement, type Rect } from '../tour-machine'

/** The first visible element carrying `data-tour="anchor"`, if any. */
export function findAnchor(anchor: string): HTMLElement | null {
  const found = document.querySelectorAll<HTMLElement>(`[data-tour="${CSS.escape(anchor)}"]`)
  for (const element of found) {
    const rect = element.getBoundingClientRect()
    if (rect.width > 0 || rect.height > 0) return element
  }
  return null
}

function rectOf(element: HTMLElement | null): Rect | null {
  if (!element) return null
  const { top, left, width, height } = element.getBoundingClientRect()
  return { top, left, width, height }
}

function sameRect(a: Rect | null, b: Rect | null): boolean {
  if (!a || !b) return a === b
  return a.top === b.top && a.left === b.left && a.width === b.width && a.height === b.height
}

/** The anchor's box, followed through scrolling, resizing and pages that render late. */
function useAnchorRect(anchor: string): Rect | null {
  const [rect, setRect] = useState<Rect | null>(() => rectOf(findAnchor(anchor)))
  useEffect(() => {
    const element = findAnchor(anchor)
    element?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
    const update = () => {
      const next = rectOf(findAnchor(anchor))
      setRect((previous) => (sameRect(previous, next) ? previous : next))
    }
    update()
    const timer = window.setInterval(update, 250)
    window.addEventListener('resize', update)
    window.addEventListener('scroll', update, true)
    return () => {
      window.clearInterval(timer)
      window.removeEventListener('resize', update)
      window.removeEventListener('scroll', update, true)
    }
  }, [anchor])
  return rect
}

export interface TourPopoverProps {
  step: TourStep
  index: number
  total: number
  /** A line under the text when the step's element is not on this page. */
  hint?: string
  busy: boolean
  error?: string
  onNext(): void
  onBack(): void
  /** Skip on every step but the last; Finish on the last. */
  onEnd(): void
  ref?: Ref<HTMLDivElement>
}

export function TourPopover({ step, index, total, hint, busy, error, onNext, onBack, onEnd, ref }: TourPopoverProps) {
  const titleId = useId()
  const textId = useId()
  const box = useRef<HTMLDivElement | null>(null)
  const anchor = useAnchorRect(step.anchor)
  const [position, setPosition] = useState<{ top: number; left: number; placement: Placement } | null>(null)
  const [viewport, setViewport] = useState(() => ({ width: window.innerWidth, height: window.innerHeight }))
  const last = index === total - 1
  const placed = position !== null

  useEffect(() => {
    const onResize = () => setViewport({ width: window.innerWidth, height: window.innerHeight })
    window.addEventListener('resize', onResize)
    return () => window.removeEventListener('resize', onResize)
  }, [])

  useLayoutEffect(() => {
    const element = box.current
    if (!element) return
    const next = placePopover(
      anchor,
      { width: element.offsetWidth, height: element.offsetHeight },
      viewport,
      step.side,
    )
    setPosition((previous) =>
      previous && previous.top === next.top && previous.left === next.left && previous.placement === next.placement
        ? previous
        : next,
    )
  }, [anchor, viewport, index, error, hint, step.side])

  // Every new step takes the focus (once placed and visible), so a keyboard or screen reader
  // user is told about it.
  useEffect(() => {
    if (placed) box.current?.focus({ preventScroll: true })
  }, [index, placed])

  const setRefs = (element: HTMLDivElement | null) => {
    box.current = element
    if (typeof ref === 'function') ref(element)
    else if (ref) ref.current = element
  }

  return (
    <>
      {anchor && (
        <div
          aria-hidden="true"
          data-testid="tour-highlight"
          className="pointer-events-none fixed z-40 rounded-md ring-4 ring-primary ring-offset-2 ring-offset-background"
          style={{ top: anchor.top - 4, left: anchor.left - 4, width: anchor.width + 8, height: anchor.height + 8 }}
        />
      )}
      <div
        ref={setRefs}
        role="dialog"
        aria-labelledby={titleId}
        aria-describedby={textId}
        tabIndex={-1}
        data-tour-popover=""
        data-placement={position?.placement ?? (anchor ? 'below' : 'centre')}
        className="fixed z-50 w-[22rem] max-w-[calc(100vw-1rem)] space-y-3 rounded-lg border border-border bg-background p-4 text-foreground shadow-lg outline-none focus-visible:ring-3 focus-visible:ring-ring"
        style={{ top: position?.top ?? 0, left: position?.left ?? 0, visibility: position ? 'visible' : 'hidden' }}
      >
        <p className="text-xs font-medium text-muted-foreground" data-testid="tour-progress">
          {index + 1} of {total}
        </p>
        <h2 id={titleId} className="text-lg font-semibold">
          {step.title}
        </h2>
        <div id={textId} className="space-y-2 text-sm">
          <p>{step.text}</p>
          {hint && <p className="text-muted-foreground">{hint}</p>}
        </div>
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        <div className="flex flex-wrap items-center justify-between gap-2 pt-1">
          <Button variant={last ? 'default' : 'ghost'} size="sm" onClick={onEnd} disabled={busy}>
            {endLabel(index, total)}
          </Button>
          <div className="flex gap-2">
            <Button variant="outline" size="sm" onClick={onBack} disabled={index === 0 || busy}>
              Back
            </Button>
            {!last && (
              <Button size="sm" onClick={onNext} disabled={busy}>
                Next
              </Button>
            )}
          </div>
        </div>
      </div>
    </>
  )
}
