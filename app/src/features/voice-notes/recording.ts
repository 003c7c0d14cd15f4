//! Small rules of voice-note recording: the format MediaRecorder uses, the default
//! filename and the timer text.

/** In order of preference (spec section 9: audio/mp4 for voice notes where possible). */
const PREFERRED_TYPES = ['audio/mp4', 'audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus']

/** The first type this browser's MediaRecorder can write, or '' to let it choose. */
export function pickRecordingType(isSupported: (type: string) => boolean): string {
  return PREFERRED_TYPES.find((type) => isSupported(type)) ?? ''
}

/** The container type without codec parameters: what is uploaded and stored. */
export function baseType(type: string): string {
  return type.split(';')[0].trim() || 'audio/webm'
}

const pad = (n: number) => String(n).padStart(2, '0')

/**
 * The name a new note gets: 'Voice note 22-11-2026 14-05' (the product's dd/MM/yyyy, HH:mm
 * with dashes, since slashes and colons are not allowed in file names everywhere).
 */
export function defaultNoteName(now: Date, prefix = 'Voice note'): string {
  const day = `${pad(now.getDate())}-${pad(now.getMonth() + 1)}-${now.getFullYear()}`
  return `${prefix} ${day} ${pad(now.getHours())}-${pad(now.getMinutes())}`
}

/** Seconds as m:ss (or h:mm:ss from an hour). */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds))
  const hours = Math.floor(s / 3600)
  const minutes = Math.floor((s % 3600) / 60)
  const seconds = s % 60
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`
}
