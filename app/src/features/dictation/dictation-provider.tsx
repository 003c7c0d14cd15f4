//! The dictation feature's shell service (`useDictation()` in `lib/capture.tsx`): the marking
//! form (or the AI assistant, with its own button text) opens the drawer with where its
//! transcript goes. The drawer (and its worker) load on the first open; it is unmounted when
//! closed, which ends its session. A dictation a closed tab left on the device is offered back
//! (components/recovery-dialog.tsx).

import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'

import { DictationContext, type DictationApi, type DictationOptions, type DictationRecordingTarget } from '@/lib/capture'
import { recordingsToRecover } from '@/lib/outbox/recordings'
import { useSession } from '@/lib/session'

const DictationDrawer = lazy(async () => ({ default: (await import('./components/dictation-drawer')).DictationDrawer }))
const RecoveryDialog = lazy(async () => ({ default: (await import('./components/recovery-dialog')).RecoveryDialog }))

/** Offers back a dictation a closed tab left on the device (the dialog loads only then). */
function Recovery() {
  const userId = useSession().session?.user.id ?? null
  const [found, setFound] = useState(false)
  useEffect(() => {
    if (!userId) return
    let live = true
    recordingsToRecover(userId)
      .then((recordings) => live && setFound(recordings.length > 0))
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [userId])
  if (!userId || !found) return null
  return (
    <Suspense fallback={null}>
      <RecoveryDialog userId={userId} />
    </Suspense>
  )
}

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
      <Recovery />
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
