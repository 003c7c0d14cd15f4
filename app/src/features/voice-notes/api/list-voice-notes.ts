//! `voiceNote.list`: the user's voice notes, newest first.

import type { VoiceNote } from '@/generated/rpc-types'
import { rpcKey, useRpcQuery } from '@/lib/rpc'

export type { VoiceNote }

/** The list's cache key, refreshed after a save, rename or delete. */
export const VOICE_NOTES_KEY = rpcKey('voiceNote.list')

export const useVoiceNotes = () => useRpcQuery('voiceNote.list')
