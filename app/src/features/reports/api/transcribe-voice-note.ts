//! `voiceNote.transcribe`: queues the transcript of a voice note that has none yet, so it
//! can be added to a report.

import { useRpcMutation } from '@/lib/rpc'

export const useTranscribeVoiceNote = () => useRpcMutation('voiceNote.transcribe')
