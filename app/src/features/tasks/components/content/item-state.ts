//! How an item of a task's content is shown: its state's words and badge, and its kind's
//! name. Pure, so it is tested without rendering.

import type { TaskContentItem } from '@/generated/rpc-types'

type Item = Pick<TaskContentItem, 'status' | 'processing' | 'arrived'>

export type BadgeTone = 'secondary' | 'warning' | 'success' | 'destructive'

/** The state's label: Uploading, Queued, Transcribing, Extracting, Processing, Ready or Failed. */
export function stateLabel(item: Item): string {
  switch (item.status) {
    case 'QUEUED':
      return item.arrived ? 'Queued' : 'Uploading'
    case 'PROCESSING':
      if (item.processing === 'TRANSCRIBE') return 'Transcribing'
      if (item.processing === 'EXTRACT') return 'Extracting'
      return 'Processing'
    case 'READY':
      return 'Ready'
    case 'FAILED':
      return 'Failed'
    default:
      return item.status
  }
}

export function stateTone(item: Item): BadgeTone {
  if (item.status === 'READY') return 'success'
  if (item.status === 'FAILED') return 'destructive'
  if (item.status === 'PROCESSING') return 'warning'
  return 'secondary'
}

export function kindLabel(kind: string): string {
  switch (kind) {
    case 'VOICE_NOTE':
      return 'Voice note'
    case 'PHOTO_NOTES':
      return 'Photo notes'
    case 'RECORDING':
      return 'Recording'
    default:
      return 'File'
  }
}

/** The first `max` characters of `text` on one line, for the collapsed preview. */
export function preview(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > max ? `${line.slice(0, max - 1)}…` : line
}

/** `Recording 24-11-2026 14.05.wav`: a name the server's filename rule accepts. */
export function recordingName(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `Recording ${pad(at.getDate())}-${pad(at.getMonth() + 1)}-${at.getFullYear()} ${pad(at.getHours())}.${pad(at.getMinutes())}.wav`
}
