//! A chart as a `<figure>`: the caption (the chart's title), the picture (hidden from
//! screen readers, which read the table instead), the same numbers as a table that is always
//! in the page, and 'Download CSV' of those numbers. Shared by the Insights page and the
//! pupil profile; the pictures themselves come from `./charts` (Recharts), loaded lazily.

import type { ReactNode } from 'react'

import { Cell, DataTable } from '@/components/data-table'
import { Button } from '@/components/ui/button'

import { downloadCsv, toCsv, type CsvValue } from './csv'

export interface ChartTable {
  headers: readonly string[]
  rows: readonly (readonly CsvValue[])[]
}

export function ChartFigure({
  title,
  description,
  table,
  filename,
  empty,
  children,
}: {
  /** The figcaption: the chart's name. */
  title: string
  description?: string
  table: ChartTable
  /** The CSV file's name. */
  filename: string
  /** Shown instead of the picture when there is nothing to draw. */
  empty?: string
  children: ReactNode
}) {
  const nothing = table.rows.length === 0
  return (
    <figure className="min-w-0 space-y-3 rounded-lg border border-border p-4">
      <figcaption className="flex flex-wrap items-start justify-between gap-2">
        <span className="space-y-1">
          <span className="block text-lg font-semibold">{title}</span>
          {description && <span className="block text-sm text-muted-foreground">{description}</span>}
        </span>
        <Button
          variant="outline"
          size="sm"
          onClick={() => downloadCsv(filename, toCsv(table.headers, table.rows))}
          aria-label={`Download CSV: ${title}`}
        >
          Download CSV
        </Button>
      </figcaption>
      {nothing ? (
        <p className="text-sm text-muted-foreground">{empty ?? 'Nothing to show for these filters.'}</p>
      ) : (
        // Hidden from assistive technology and out of the tab order: the table below reads the same.
        <div aria-hidden="true" inert className="h-60 w-full min-w-0">
          {children}
        </div>
      )}
      {!nothing && (
        <DataTable caption={`${title}: table`} headers={table.headers}>
          {table.rows.map((row, i) => (
            <tr key={i}>
              {row.map((value, j) => (
                <Cell key={j}>{value === null || value === undefined ? '—' : String(value)}</Cell>
              ))}
            </tr>
          ))}
        </DataTable>
      )}
    </figure>
  )
}
