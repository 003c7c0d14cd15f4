//! The one data table: a captioned `<table>` with column headers, inside a frame that scrolls
//! sideways on its own when the columns do not fit (a phone), so the page itself never runs
//! off the screen. The frame is a named, focusable region, so keyboard users can scroll it.

import type { ReactNode } from 'react'

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
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-muted">
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className="px-3 py-2 font-medium whitespace-nowrap">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-border">{children}</tbody>
      </table>
    </div>
  )
}

/** A body cell with the table's padding. */
export function Cell({ children, className }: { children?: ReactNode; className?: string }) {
  return <td className={cn('px-3 py-2 align-top', className)}>{children}</td>
}
