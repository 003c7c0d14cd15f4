//! `useVoiceNoteRecorder().openRecorder()` from anywhere in the shell (the palette's 'New
//! voice note', the Voice notes pages). The dialogs' code loads on first use.

import { createContext, lazy, Suspense, useContext, useMemo, useState, type ReactNode } from 'react'

const VoiceNoteFlow = lazy(() => import('./components/voice-note-flow'))

const RecorderContext = createContext<{ openRecorder(): void } | null>(null)

export function useVoiceNoteRecorder() {
  const context = useContext(RecorderContext)
  if (!context) throw new Error('useVoiceNoteRecorder needs <VoiceNoteRecorderProvider> above it')
  return context
}

export function VoiceNoteRecorderProvider({ children }: { children: ReactNode }) {
  const [used, setUsed] = useState(false)
  const [recording, setRecording] = useState(false)
  const value = useMemo(
    () => ({
      openRecorder: () => {
        setUsed(true)
        setRecording(true)
      },
    }),
    [],
  )
  return (
    <RecorderContext.Provider value={value}>
      {children}
      {used && (
        <Suspense fallback={null}>
          <VoiceNoteFlow recording={recording} onRecordingEnd={() => setRecording(false)} />
        </Suspense>
      )}
    </RecorderContext.Provider>
  )
}
