//! Opens the photo analyser from anywhere in the signed-in shell: the palette's 'New photo',
//! the message editor and the marking form call `usePhotoAnalyser().open(target)` (from
//! `lib/capture.tsx`). The dialog's code (and the photo worker) load on the first open.

import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react'

import { PhotoAnalyserContext, type AnalyserTarget, type PhotoAnalyserApi } from '@/lib/capture'

const PhotoAnalyserDialog = lazy(() => import('./components/photo-analyser-dialog'))

export function PhotoAnalyserProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false)
  const [loaded, setLoaded] = useState(false)
  const [target, setTarget] = useState<AnalyserTarget | undefined>()
  const api = useMemo<PhotoAnalyserApi>(
    () => ({
      open(next) {
        setTarget(next)
        setLoaded(true)
        setOpen(true)
      },
    }),
    [],
  )
  return (
    <PhotoAnalyserContext.Provider value={api}>
      {children}
      {loaded && (
        <Suspense fallback={null}>
          <PhotoAnalyserDialog open={open} onOpenChange={setOpen} target={target} />
        </Suspense>
      )}
    </PhotoAnalyserContext.Provider>
  )
}
