//! An empty list or page: an icon, one sentence of why it is empty, and the one action to take
//! (a link or a button), framed so it reads as a state rather than a missing page.

import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'

import { cn } from '@/lib/utils'

export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
  className,
}: {
  icon?: LucideIcon
  /** A short heading-like line ("No voice notes yet"). */
  title: ReactNode
  /** One sentence of why, or what comes here. */
  children?: ReactNode
  /** The one thing to do next: a `Button` (or a `Button asChild` link). */
  action?: ReactNode
  className?: string
}) {
  return (
    <div
      className={cn(
        'flex flex-col items-center gap-3 rounded-lg border border-dashed border-border px-6 py-10 text-center',
        className,
      )}
    >
      {Icon && (
        <span className="inline-flex size-12 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <Icon aria-hidden="true" className="size-6" />
        </span>
      )}
      <p className="text-base font-semibold text-foreground">{title}</p>
      {children && <p className="max-w-md text-sm text-muted-foreground">{children}</p>}
      {action && <div className="mt-1">{action}</div>}
    </div>
  )
}
