//! Text input and select (shadcn-style), with the error look driven by `aria-invalid`.

import type { ComponentProps } from 'react'

import { cn } from '@/lib/utils'

const fieldClass =
  'flex h-10 w-full rounded-md border border-border bg-background px-3 py-2 text-sm outline-none placeholder:text-muted-foreground focus-visible:ring-3 focus-visible:ring-ring focus-visible:ring-offset-1 aria-invalid:border-destructive disabled:opacity-50'

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input data-slot="input" className={cn(fieldClass, className)} {...props} />
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select data-slot="select" className={cn(fieldClass, className)} {...props} />
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label data-slot="label" className={cn('text-sm font-medium', className)} {...props} />
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      data-slot="textarea"
      className={cn(fieldClass, 'h-auto min-h-24 resize-y leading-relaxed', className)}
      {...props}
    />
  )
}
