//! `voiceNote.list`: the user's voice notes, newest first, 20 a page (`useRpcPages`, "Show
//! more voice notes").

import type { VoiceNote } from '@/generated/rpc-types'
import { rpcKey, useRpcPages } from '@/lib/rpc'

export type { VoiceNote }

/** The list's cache key (every page loaded), refreshed after a save, rename or delete. */
export const VOICE_NOTES_KEY = rpcKey('voiceNote.list')

export const useVoiceNotes = () => useRpcPages('voiceNote.list', {}, (page) => page.nextCursor)
