//! Small rules of recording audio (voice notes and dictation): the format MediaRecorder
//! uses, the default filename, the extension a saved name gets, and the timer text.

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

/** The audio file's extension for `contentType`, added to names that have none. */
export function extensionFor(contentType: string): string {
  const base = contentType.split(';')[0].trim().toLowerCase()
  const known: Record<string, string> = {
    'audio/mp4': '.m4a',
    'audio/webm': '.webm',
    'audio/ogg': '.ogg',
    'audio/wav': '.wav',
    'audio/mpeg': '.mp3',
  }
  return known[base] ?? ''
}

/** `name` with the format's extension when it does not already end with one. */
export function withExtension(name: string, contentType: string): string {
  const extension = extensionFor(contentType)
  const trimmed = name.trim()
  return extension && !trimmed.toLowerCase().endsWith(extension) ? `${trimmed}${extension}` : trimmed
}
