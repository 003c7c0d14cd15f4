//! The voice-notes feature's shell service (`useVoiceNoteRecorder()` in `lib/capture.tsx`):
//! record a new note from anywhere in the shell (the palette's 'New voice note', the Voice
//! notes pages), and the save dialog and upload for recordings made elsewhere (dictation).
//! The dialogs' code loads on first use.

import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react'

import { VoiceNoteRecorderContext, type SaveRecordingProps, type VoiceNoteRecorderApi } from '@/lib/capture'

const VoiceNoteFlow = lazy(() => import('./components/voice-note-flow'))
const LazySaveDialog = lazy(async () => ({
  default: (await import('./components/save-voice-note-dialog')).SaveVoiceNoteDialog,
}))

function SaveDialog(props: SaveRecordingProps) {
  if (!props.audio) return null
  return (
    <Suspense fallback={null}>
      <LazySaveDialog {...props} />
    </Suspense>
  )
}

export function VoiceNoteRecorderProvider({ children }: { children: ReactNode }) {
  const [used, setUsed] = useState(false)
  const [recording, setRecording] = useState(false)
  const value = useMemo<VoiceNoteRecorderApi>(
    () => ({
      openRecorder: () => {
        setUsed(true)
        setRecording(true)
      },
      SaveDialog,
      upload: async (audio, filename, onProgress) =>
        (await import('./api/upload-voice-note')).uploadVoiceNote(audio, filename, onProgress),
    }),
    [],
  )
  return (
    <VoiceNoteRecorderContext.Provider value={value}>
      {children}
      {used && (
        <Suspense fallback={null}>
          <VoiceNoteFlow recording={recording} onRecordingEnd={() => setRecording(false)} />
        </Suspense>
      )}
    </VoiceNoteRecorderContext.Provider>
  )
}
