//! The one data table: a captioned `<table>` with column headers, inside a frame that scrolls
//! sideways on its own when the columns do not fit, so the page itself never runs off the
//! screen. The frame is a named, focusable region, so keyboard users can scroll it.
//! Under 640 px each row becomes a card: the first cell (the name) leads, and each other cell
//! is a line of its column's name (a `data-label` the table writes on every cell) and its
//! value, so a phone reads name, status and actions without scrolling sideways.

import { useLayoutEffect, useRef, type ReactNode } from 'react'

import { cn } from '@/lib/utils'

export function DataTable({
  caption,
  headers,
  children,
  className,
}: {
  /** Names the table and its scrolling frame (read by screen readers, not shown). */
  caption: string
  headers: readonly string[]
  /** The rows: `<tr>`s of `<Cell>`s. */
  children: ReactNode
  className?: string
}) {
  const body = useRef<HTMLTableSectionElement>(null)
  const labels = headers.join('\u0000')

  // Each cell is labelled with its column's header, for the phone's cards; again whenever
  // rows come or go (a row's own state may add cells without this table re-rendering).
  useLayoutEffect(() => {
    const tbody = body.current
    if (!tbody) return
    const names = labels.split('\u0000')
    const label = () => {
      for (const row of tbody.rows) {
        let column = 0
        for (const cell of row.cells) {
          const name = cell.colSpan > 1 ? '' : (names[column] ?? '')
          if (cell.dataset.label !== name) cell.dataset.label = name
          column += cell.colSpan
        }
      }
    }
    label()
    const observer = new MutationObserver(label)
    observer.observe(tbody, { childList: true, subtree: true })
    return () => observer.disconnect()
  }, [labels])

  return (
    // A focusable scroll container is what axe's scrollable-region-focusable asks for.
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className={cn(
        'max-w-full overflow-x-auto rounded-lg border border-border outline-none focus-visible:ring-3 focus-visible:ring-ring',
        className,
      )}
    >
      <table className="w-full text-left text-sm max-sm:block">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted max-sm:sr-only">
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody
          ref={body}
          className={cn(
            'divide-y divide-border',
            // Phone cards: rows and cells stack; each cell but the first is headed by its column.
            'max-sm:block max-sm:[&>tr]:block max-sm:[&>tr]:px-3 max-sm:[&>tr]:py-2',
            'max-sm:[&>tr>td]:block max-sm:[&>tr>td]:px-0 max-sm:[&>tr>td]:py-1',
            'max-sm:[&>tr>td:first-child]:text-base max-sm:[&>tr>td:first-child]:font-medium',
            // Label left, value right, one line each where it fits.
            'max-sm:[&>tr>td:not(:first-child)]:flex max-sm:[&>tr>td:not(:first-child)]:flex-wrap',
            'max-sm:[&>tr>td:not(:first-child)]:items-baseline max-sm:[&>tr>td:not(:first-child)]:justify-between',
            'max-sm:[&>tr>td:not(:first-child)]:gap-x-4 max-sm:[&>tr>td:not(:first-child)]:text-right',
            'max-sm:[&>tr>td:not(:first-child)]:before:text-left max-sm:[&>tr>td:not(:first-child)]:before:text-xs',
            'max-sm:[&>tr>td:not(:first-child)]:before:text-muted-foreground',
            'max-sm:[&>tr>td:not(:first-child)]:before:content-[attr(data-label)]',
          )}
        >
          {children}
        </tbody>
      </table>
    </div>
  )
}

/** A body cell with the table's padding. */
export function Cell({ children, className }: { children?: ReactNode; className?: string }) {
  return <td className={cn('px-3 py-2 align-top', className)}>{children}</td>
}
