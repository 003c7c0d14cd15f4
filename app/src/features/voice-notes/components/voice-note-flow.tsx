//! The record-then-save flow as one piece: 'Record voice note', then 'Save voice note'.

import { useState } from 'react'

import { defaultNoteName } from '@/lib/recording'
import { RecordVoiceNoteDialog } from './record-voice-note-dialog'
import { SaveVoiceNoteDialog } from './save-voice-note-dialog'

export default function VoiceNoteFlow({ recording, onRecordingEnd }: { recording: boolean; onRecordingEnd: () => void }) {
  const [audio, setAudio] = useState<Blob | null>(null)
  const [name, setName] = useState('')
  return (
    <>
      <RecordVoiceNoteDialog
        open={recording}
        onClose={onRecordingEnd}
        onRecorded={(blob) => {
          setName(defaultNoteName(new Date()))
          setAudio(blob)
        }}
      />
      <SaveVoiceNoteDialog
        audio={audio}
        defaultName={name}
        onSaved={() => setAudio(null)}
        onCancel={() => setAudio(null)}
      />
    </>
  )
}
