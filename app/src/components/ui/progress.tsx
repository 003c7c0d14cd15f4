//! A determinate progress bar (shadcn-style look) with the ARIA progressbar role.

import { cn } from '@/lib/utils'

export function Progress({
  value,
  label,
  className,
}: {
  /** Percent done, 0 to 100. */
  value: number
  /** What is progressing, for assistive technology. */
  label: string
  className?: string
}) {
  const percent = Math.max(0, Math.min(100, Math.round(value)))
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent}%`}
      className={cn('h-2 w-full overflow-hidden rounded-full bg-muted', className)}
    >
      <div className="h-full bg-primary transition-[width] duration-150" style={{ width: `${percent}%` }} />
    </div>
  )
}
