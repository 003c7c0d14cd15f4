//! `system.features`: which optional capabilities this server is set up for (AI photo analysis,
//! dictation, the chat model behind AI writing, card payments). It changes only with the
//! server's configuration, so one answer serves every feature for minutes. Pages use it to say
//! plainly, before any work starts, that a capability is not switched on.

import { useRpcQuery } from '@/lib/rpc'

export type { BillingFeature, Features as SystemFeatures } from '@/generated/rpc-types'

export const useFeatures = (enabled = true) =>
  useRpcQuery('system.features', undefined, { staleTime: 5 * 60_000, retry: false, enabled })

/** The capabilities staff may find switched off, as they read them in a sentence. */
export const CAPABILITY_NAMES = {
  chat: 'AI writing',
  assistant: 'The AI assistant',
  autofill: 'AI autofill',
  reports: 'Report writing',
  photoAnalysis: 'AI photo analysis',
  dictation: 'Live dictation',
  transcription: 'Transcription',
  microsoft: 'Microsoft 365',
  billing: 'Card payments',
} as const

/**
 * What staff read when a capability is off: a plain sentence, never a setting name or a
 * docs path (a superadmin finds those on /setup).
 */
export function notSwitchedOn(capability: keyof typeof CAPABILITY_NAMES): string {
  return `${CAPABILITY_NAMES[capability]} is not switched on for your school yet. Ask your administrator.`
}
