//! The words of the content step's Microsoft 365 part, kept pure so they are tested without
//! rendering: what each `?microsoft=` outcome of the connection says, how a Teams recording
//! is shown and named, and a file's size. Decisions in docs/microsoft-graph.md.

import { formatDate } from '@/lib/format-date'

export const CONNECT_MICROSOFT = 'Connect Microsoft account'

/** The outcomes `GET /api/microsoft/callback` returns with (`?microsoft=…`). */
export const MICROSOFT_OUTCOMES = {
  connected: 'Your Microsoft account is connected. You can now import files and Teams recordings.',
  refused: 'Microsoft did not connect your account. Please try again.',
  declined: 'You did not give Voicemark access to your Microsoft account, so nothing was connected.',
  'not-linked':
    'That Microsoft account is already linked to another Voicemark user. Connect your own Microsoft account.',
  'not-set-up': 'Microsoft 365 is not switched on for your school yet, so no account can be connected. Ask your administrator.',
  unavailable: 'Microsoft could not be reached. Please try again later.',
  'signed-out': 'You were signed out while connecting. Sign in, then connect your Microsoft account again.',
} as const

export type MicrosoftOutcome = keyof typeof MICROSOFT_OUTCOMES

/** The outcome named by a `microsoft` query value, if it is one we know. */
export function microsoftOutcome(value: string | null): MicrosoftOutcome | undefined {
  return value !== null && Object.hasOwn(MICROSOFT_OUTCOMES, value) ? (value as MicrosoftOutcome) : undefined
}

/** `Teams recording 20/11/2026, 09:00`: how a recording is listed (local time). */
export function recordingTitle(createdAt: string | null): string {
  const when = createdAt ? formatDate(createdAt, true) : ''
  return when ? `Teams recording ${when}` : 'Teams recording'
}

/**
 * `Teams recording 20-11-2026 09.00`: the name the imported item gets (the server adds
 * `.mp4`). Dashes and a dot because a filename cannot hold `/` (and `:` upsets Windows),
 * as the content step's own recordings are named.
 */
export function recordingItemName(createdAt: string | null): string {
  const at = createdAt ? new Date(createdAt) : null
  if (!at || Number.isNaN(at.getTime())) return 'Teams recording'
  const pad = (n: number) => String(n).padStart(2, '0')
  return `Teams recording ${pad(at.getDate())}-${pad(at.getMonth() + 1)}-${at.getFullYear()} ${pad(at.getHours())}.${pad(at.getMinutes())}`
}

/** `1.5 MB`, `820 KB`, `12 bytes`. */
export function fileSize(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes)) return ''
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`
}

/** The current address without `microsoft=…`, for `returnTo` and for tidying the bar. */
export function withoutOutcome(pathname: string, search: string): string {
  const params = new URLSearchParams(search)
  params.delete('microsoft')
  const rest = params.toString()
  return rest ? `${pathname}?${rest}` : pathname
}
