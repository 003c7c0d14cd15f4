//! A file input that looks like the other buttons: the native input stays in the page (visually
//! hidden, still focusable and labelled, so the keyboard, screen readers and `setInputFiles`
//! use it as before) and its `<label>` is drawn as an outline button, with the names of the
//! files last chosen beside it.

import { useId, type ComponentProps } from 'react'

import { cn } from '@/lib/utils'

import { buttonVariants } from './button'

export function FilePicker({
  label,
  hint,
  error,
  chosen,
  className,
  ...input
}: Omit<ComponentProps<'input'>, 'type' | 'id'> & {
  label: string
  hint?: string
  error?: string
  /** The names of the files last chosen ('No file chosen' when empty). */
  chosen: string[]
}) {
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const chosenId = `${id}-chosen`
  return (
    <div className={cn('space-y-1.5', className)}>
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={id}
          type="file"
          className="peer sr-only"
          aria-invalid={error ? true : undefined}
          aria-describedby={[chosenId, hintId, errorId].filter(Boolean).join(' ')}
          {...input}
        />
        <label
          htmlFor={id}
          className={cn(
            buttonVariants({ variant: 'outline' }),
            'cursor-pointer peer-focus-visible:ring-3 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2',
            input.disabled && 'pointer-events-none opacity-50',
          )}
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
          </svg>
          {label}
        </label>
        <span id={chosenId} aria-live="polite" className="min-w-0 truncate text-sm text-muted-foreground">
          {chosen.length > 0 ? chosen.join(', ') : 'No file chosen'}
        </span>
      </div>
      {hint && (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </div>
  )
}
