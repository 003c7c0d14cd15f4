//! The toasts themselves on Radix Toast; loaded with the first toast (see toaster.tsx), so
//! Radix Toast stays out of the initial download.

import * as ToastPrimitive from '@radix-ui/react-toast'

import { cn } from '@/lib/utils'

import type { ToastEntry } from './toaster'

export default function ToastList({
  toasts,
  durationMs,
  onClose,
}: {
  toasts: ToastEntry[]
  durationMs: number
  onClose(id: number): void
}) {
  return (
    <ToastPrimitive.Provider duration={durationMs} swipeDirection="right">
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          onOpenChange={(open) => {
            if (!open) onClose(t.id)
          }}
          className={cn(
            'flex items-start gap-3 rounded-md border bg-background p-4 shadow-lg',
            t.tone === 'error' && 'border-destructive',
            t.tone === 'success' && 'border-success',
          )}
        >
          <div className="flex-1 space-y-1">
            <ToastPrimitive.Title
              className={cn(
                'text-sm font-semibold',
                t.tone === 'error' && 'text-destructive',
                t.tone === 'success' && 'text-success',
              )}
            >
              {t.title}
            </ToastPrimitive.Title>
            {t.description && (
              <ToastPrimitive.Description className="text-sm text-muted-foreground">
                {t.description}
              </ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close aria-label="Close" className="rounded-sm px-1 text-muted-foreground hover:text-foreground">
            <span aria-hidden="true">×</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* On a phone the toasts sit at the top, clear of the form buttons a page ends with
          (e.g. the pupil's 'Hand in again'); from 640 px at the bottom right, beside the content. */}
      <ToastPrimitive.Viewport className="fixed top-0 right-0 z-[100] flex w-full max-w-sm flex-col gap-2 p-4 outline-none sm:top-auto sm:bottom-0" />
    </ToastPrimitive.Provider>
  )
}
