//! An inline message box: errors are announced (role="alert"), successes politely (status).

import type { ReactNode } from 'react'

import { cn } from '@/lib/utils'

export function Alert({ tone = 'error', children }: { tone?: 'error' | 'success' | 'info'; children: ReactNode }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={cn(
        'rounded-md border px-4 py-3 text-sm',
        tone === 'error' && 'border-destructive bg-red-50 text-destructive',
        tone === 'success' && 'border-success bg-green-50 text-success',
        tone === 'info' && 'border-border bg-muted text-foreground',
      )}
    >
      {children}
    </div>
  )
}
