//! The foot of a paged list (docs/scaling.md "Paged lists"): how many rows show out of how
//! many match, and a button that loads the next page while there is one (never a form's
//! submit button: the report generator's pickers sit inside its form).

import { Button } from '@/components/ui/button'

export function ShowMore({
  shown,
  total,
  noun,
  more,
  loading,
  onMore,
}: {
  shown: number
  total: number
  /** What the rows are, in the plural ("users"). */
  noun: string
  /** Whether another page follows. */
  more: boolean
  loading: boolean
  onMore(): void
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <p className="text-sm text-muted-foreground" aria-live="polite">
        {shown < total ? `Showing ${shown} of ${total} ${noun}` : `${total} ${total === 1 ? noun.replace(/s$/, '') : noun}`}
      </p>
      {more && (
        <Button type="button" variant="outline" size="sm" onClick={onMore} disabled={loading}>
          {loading ? 'Loading…' : `Show more ${noun}`}
        </Button>
      )}
    </div>
  )
}
