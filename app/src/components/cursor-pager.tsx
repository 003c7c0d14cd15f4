//! Previous and Next over a list paged after a stable cursor (docs/scaling.md "Paged lists"):
//! `useCursorPages` keeps where each page shown so far starts (the first at the start, each
//! next one at the `nextCursor` of the page before); `CursorPager` shows "Page 2 of 5"
//! between the two buttons, the count read from the list's total.

import { useState } from 'react'

import { Button } from '@/components/ui/button'

export interface CursorPages {
  /** Where the page shown starts; null for the first. */
  cursor: string | null
  /** 1-based. */
  page: number
  next(cursor: string): void
  previous(): void
  /** Back to the first page (a new search). */
  reset(): void
}

export function useCursorPages(): CursorPages {
  const [cursors, setCursors] = useState<(string | null)[]>([null])
  return {
    cursor: cursors[cursors.length - 1] ?? null,
    page: cursors.length,
    next: (cursor) => setCursors((shown) => [...shown, cursor]),
    previous: () => setCursors((shown) => (shown.length > 1 ? shown.slice(0, -1) : shown)),
    reset: () => setCursors([null]),
  }
}

export function CursorPager({
  pages,
  total,
  pageSize,
  nextCursor,
}: {
  pages: CursorPages
  total: number
  pageSize: number
  /** The shown page's `nextCursor`; null on the last page and while the page loads. */
  nextCursor: string | null
}) {
  const count = Math.max(pages.page, Math.ceil(total / pageSize))
  if (count <= 1) return null
  return (
    <div className="flex items-center gap-3">
      <Button size="sm" variant="outline" disabled={pages.page <= 1} onClick={pages.previous}>
        Previous
      </Button>
      <span className="text-sm" aria-live="polite">
        Page {pages.page} of {count}
      </span>
      <Button size="sm" variant="outline" disabled={nextCursor === null} onClick={() => nextCursor !== null && pages.next(nextCursor)}>
        Next
      </Button>
    </div>
  )
}
