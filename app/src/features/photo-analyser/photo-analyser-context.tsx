//! Opens the photo analyser from anywhere in the signed-in shell: the palette's 'New photo',
//! the message editor and the marking form call `usePhotoAnalyser().open(target)`. The
//! dialog's code (and the photo worker) load on the first open.

import { createContext, lazy, Suspense, useContext, useMemo, useState, type ReactNode } from 'react'

/** Where the AI's answer can go from the AI Response tab, e.g. 'Use as feedback'. */
export interface AnalyserTarget {
  /** The action's button text. */
  label: string
  use(text: string): void
}

interface PhotoAnalyserApi {
  open(target?: AnalyserTarget): void
}

const PhotoAnalyserContext = createContext<PhotoAnalyserApi | null>(null)

const PhotoAnalyserDialog = lazy(() => import('./components/photo-analyser-dialog'))

export function usePhotoAnalyser(): PhotoAnalyserApi {
  const context = useContext(PhotoAnalyserContext)
  if (!context) throw new Error('usePhotoAnalyser needs <PhotoAnalyserProvider> above it')
  return context
}

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
