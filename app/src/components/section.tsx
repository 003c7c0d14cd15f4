//! A titled, framed section of a page: an `h2` that names the `<section>` landmark (so it is
//! a region assistive technology can jump to, and tests can find by name). The one used by
//! every page (Settings, Manage School, the Dashboard, pupil profiles).

import { useId, type ReactNode } from 'react'

import { cn } from '@/lib/utils'

export function Section({
  title,
  children,
  className,
}: {
  title: ReactNode
  children: ReactNode
  /** Extra classes for the frame (e.g. a tighter `space-y-3`). */
  className?: string
}) {
  const id = useId()
  return (
    <section aria-labelledby={id} className={cn('space-y-4 rounded-lg border border-border p-5', className)}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  )
}
