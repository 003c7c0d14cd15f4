//! Toasts: `useToast().toast({...})` anywhere below `<Toaster>`. Each closes after the core's
//! `toastDurationMs` (4 s) and at most `toastLimit` (5) show at once. The Radix part
//! (toast-list.tsx) loads with the first toast.

import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'

import { useCoreLimits } from '@/lib/use-core'

export interface ToastInput {
  title: string
  description?: string
  tone?: 'default' | 'success' | 'error'
}

export interface ToastEntry extends ToastInput {
  id: number
}

const ToastList = lazy(() => import('./toast-list'))

const ToastContext = createContext<{ toast(input: ToastInput): void } | null>(null)

export function useToast() {
  const context = useContext(ToastContext)
  if (!context) throw new Error('useToast needs <Toaster> above it')
  return context
}

let nextToastId = 1

/** Keeps the newest `limit` toasts that are still present. */
export function withNewToast<T>(list: T[], entry: T, limit: number): T[] {
  return [...list, entry].slice(-Math.max(1, limit))
}

export function Toaster({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastEntry[]>([])
  const [used, setUsed] = useState(false)
  // Asked of the core with the first toast (spec section 9's values until it answers), so
  // a page that shows none does not start the core's worker for it.
  const { toastDurationMs, toastLimit } = useCoreLimits({ enabled: used })

  const toast = useCallback(
    (input: ToastInput) => {
      setUsed(true)
      setToasts((list) => withNewToast(list, { ...input, id: nextToastId++ }, toastLimit))
    },
    [toastLimit],
  )
  const value = useMemo(() => ({ toast }), [toast])
  const close = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), [])

  return (
    <ToastContext.Provider value={value}>
      {children}
      {used && (
        <Suspense fallback={null}>
          <ToastList toasts={toasts} durationMs={toastDurationMs} onClose={close} />
        </Suspense>
      )}
    </ToastContext.Provider>
  )
}
