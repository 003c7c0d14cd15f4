//! The shell's capture tools, as features see them: the photo analyser, the voice-note
//! recorder and live dictation. Each is a context whose provider lives in its own feature and
//! is mounted once by the shell (`app/shell/shell.tsx`); other features open a tool through
//! these hooks, so no feature imports another (app -> features -> lib/components).

import { createContext, useContext, type ComponentType } from 'react'

import type { AnswerGoesTo } from './outbox/db'

function required<T>(value: T | null, hook: string, provider: string): T {
  if (!value) throw new Error(`${hook} needs <${provider}> above it`)
  return value
}

// --- Photo analyser (features/photo-analyser) ---

/** Where the AI's answer can go from the AI Response tab, e.g. 'Use as feedback'. */
export interface AnalyserTarget {
  /** The action's button text. */
  label: string
  use(text: string): void
  /**
   * The instructions the analyser starts with, for another mode than feedback (the task
   * content's 'notes' mode reads handwritten notes as text).
   */
  prompt?: string
  /** Pictures to analyse instead of the camera's (a pupil's handed-in photos): opens on Review. */
  photos?: { url: string; name: string }[]
  /**
   * Where the answer goes when the photos have to wait to be analysed (no connection): the
   * outbox analyses them later and passes the answer to `then` itself. `title` names the
   * item in the Outbox; `promise` ends the sentence "Your photos are kept on this device.
   * They will be analysed when Voicemark can be reached, and …". Without it, the answer
   * waits in the Outbox for the user to read. `refresh`: the queries to fetch again once it
   * has gone (`leader.listTaskFiles`).
   */
  later?: { title: string; then: AnswerGoesTo; promise: string; refresh: string[] }
}

export interface PhotoAnalyserApi {
  open(target?: AnalyserTarget): void
}

export const PhotoAnalyserContext = createContext<PhotoAnalyserApi | null>(null)

/** Opens the photo analyser (the palette's 'New photo', the message editor, the marking form). */
export function usePhotoAnalyser(): PhotoAnalyserApi {
  return required(useContext(PhotoAnalyserContext), 'usePhotoAnalyser', 'PhotoAnalyserProvider')
}

// --- Voice notes (features/voice-notes) ---

/** The props of the 'Save voice note' dialog: open while there is a recording. */
export interface SaveRecordingProps {
  audio: Blob | null
  defaultName: string
  onSaved?: (note: { id: string | null; filename: string }) => void
  onCancel: () => void
}

export interface VoiceNoteRecorderApi {
  /** Records a new voice note, then offers to save it. */
  openRecorder(): void
  /** The 'Save voice note' dialog, for a recording made elsewhere (dictation). */
  SaveDialog: ComponentType<SaveRecordingProps>
  /** Uploads a recording into the user's personal folder; resolves with the new note's id. */
  upload(audio: Blob, filename: string, onProgress: (fraction: number) => void): Promise<{ id: string }>
}

export const VoiceNoteRecorderContext = createContext<VoiceNoteRecorderApi | null>(null)

export function useVoiceNoteRecorder(): VoiceNoteRecorderApi {
  return required(useContext(VoiceNoteRecorderContext), 'useVoiceNoteRecorder', 'VoiceNoteRecorderProvider')
}

// --- Live dictation (features/dictation) ---

/** Where a dictation goes when it is kept as a recording (a task's content). */
export interface DictationRecordingTarget {
  /** The button's text, e.g. 'Add to task'. */
  label: string
  /** Receives the WAV recording and its transcript (possibly empty). */
  use(wav: Blob, transcript: string): void
}

/** How the drawer presents itself to a caller that is not the marking form. */
export interface DictationOptions {
  /** The insert button's text (default 'Insert into feedback'), e.g. 'Ask the assistant'. */
  insertLabel?: string
  /** The drawer's title (default 'Live dictation'). */
  title?: string
  /** The line under the title (default 'Speak your feedback; the transcript appears as you talk.'). */
  description?: string
}

export interface DictationApi {
  /**
   * Opens the dictation drawer; `onInsert` receives the transcript ('Insert into feedback',
   * or `options.insertLabel`). With `recording`, its button takes the WAV and the transcript
   * instead.
   */
  open(onInsert: (text: string) => void, recording?: DictationRecordingTarget, options?: DictationOptions): void
}

export const DictationContext = createContext<DictationApi | null>(null)

export function useDictation(): DictationApi {
  return required(useContext(DictationContext), 'useDictation', 'DictationProvider')
}
