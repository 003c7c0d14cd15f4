//! The dictation feature's shell service (`useDictation()` in `lib/capture.tsx`): the marking
//! form (or the AI assistant, with its own button text) opens the drawer with where its
//! transcript goes. The drawer (and its worker) load on the first open; it is unmounted when
//! closed, which ends its session.

import { lazy, Suspense, useMemo, useRef, useState, type ReactNode } from 'react'

import { DictationContext, type DictationApi, type DictationOptions, type DictationRecordingTarget } from '@/lib/capture'

const DictationDrawer = lazy(async () => ({ default: (await import('./components/dictation-drawer')).DictationDrawer }))

export function DictationProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const insert = useRef<(text: string) => void>(() => {})
  const [recording, setRecording] = useState<DictationRecordingTarget | undefined>()
  const [options, setOptions] = useState<DictationOptions | undefined>()
  const api = useMemo<DictationApi>(
    () => ({
      open(onInsert, target, presentation) {
        insert.current = onInsert
        setRecording(target)
        setOptions(presentation)
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
          <DictationDrawer
            open={open}
            onOpenChange={setOpen}
            onInsert={(text) => insert.current(text)}
            recording={recording}
            options={options}
          />
        </Suspense>
      )}
    </DictationContext.Provider>
  )
}
