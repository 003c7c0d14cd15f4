//! The AI assistant's place in the shell: the open state of its sheet, and the sheet itself,
//! whose code loads on the first open and which then stays mounted, so the conversation
//! lives on while the sheet is closed (e.g. while the question is dictated). Mounted inside
//! the shell's `DictationProvider`, whose drawer 'Ask by voice' opens.

import { lazy, Suspense, useCallback, useMemo, useRef, useState, type ReactNode } from 'react'

import { AssistantContext, type AssistantSheetControl } from './assistant-context'

const AssistantSheet = lazy(async () => ({ default: (await import('./components/assistant-sheet')).AssistantSheet }))

export function AssistantProvider({ children }: { children: ReactNode }) {
  const [open, setOpenState] = useState(false)
  const [loaded, setLoaded] = useState(false)
  const triggerRef = useRef<HTMLButtonElement | null>(null)
  const setOpen = useCallback((next: boolean) => {
    if (next) setLoaded(true)
    setOpenState(next)
  }, [])
  const control = useMemo<AssistantSheetControl>(() => ({ open, setOpen, triggerRef }), [open, setOpen])
  return (
    <AssistantContext.Provider value={control}>
      {children}
      {loaded && (
        <Suspense fallback={null}>
          <AssistantSheet />
        </Suspense>
      )}
    </AssistantContext.Provider>
  )
}
