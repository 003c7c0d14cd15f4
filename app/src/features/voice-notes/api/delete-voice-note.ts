//! `voiceNote.delete`; the list refreshes after it.

import { useQueryClient } from '@tanstack/react-query'

import { useRpcMutation } from '@/lib/rpc'

import { VOICE_NOTES_KEY } from './list-voice-notes'

export function useDeleteVoiceNote() {
  const client = useQueryClient()
  return useRpcMutation('voiceNote.delete', { onSuccess: () => client.invalidateQueries({ queryKey: VOICE_NOTES_KEY }) })
}
