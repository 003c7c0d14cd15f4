//! The dictation feature's shell service (`useDictation()` in `lib/capture.tsx`): the marking
//! form opens the drawer with where its transcript goes. The drawer (and its worker) load on
//! the first open; it is unmounted when closed, which ends its session.

import { lazy, Suspense, useMemo, useRef, useState, type ReactNode } from 'react'

import { DictationContext, type DictationApi } from '@/lib/capture'

const DictationDrawer = lazy(async () => ({ default: (await import('./components/dictation-drawer')).DictationDrawer }))

export function DictationProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const insert = useRef<(text: string) => void>(() => {})
  const api = useMemo<DictationApi>(
    () => ({
      open(onInsert) {
        insert.current = onInsert
        setOpen(true)
      },
    }),
    [],
  )
  return (
    <DictationContext.Provider value={api}>
      {children}
      {open && (
        <Suspense fallback={null}>
          <DictationDrawer open={open} onOpenChange={setOpen} onInsert={(text) => insert.current(text)} />
        </Suspense>
      )}
    </DictationContext.Provider>
  )
}
