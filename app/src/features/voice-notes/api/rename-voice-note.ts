//! `voiceNote.rename`; the list refreshes after it.

import { useQueryClient } from '@tanstack/react-query'

import { useRpcMutation } from '@/lib/rpc'

import { VOICE_NOTES_KEY } from './list-voice-notes'

export function useRenameVoiceNote() {
  const client = useQueryClient()
  return useRpcMutation('voiceNote.rename', { onSuccess: () => client.invalidateQueries({ queryKey: VOICE_NOTES_KEY }) })
}
