//! `taskContent.voiceNotes`: the caller's voice notes, each saying whether it is already in
//! the task (the 'Pull in voice notes' dialog).

import { useRpcQuery } from '@/lib/rpc'

export const useTaskVoiceNotes = (taskId: string, enabled: boolean) =>
  useRpcQuery('taskContent.voiceNotes', { taskId }, { enabled })
