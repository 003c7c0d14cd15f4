//! `taskContent.voiceNotes`: the caller's voice notes, 50 a page newest first, each saying
//! whether it is already in the task (the 'Pull in voice notes' dialog).

import { useRpcPages } from '@/lib/rpc'

export const useTaskVoiceNotes = (taskId: string, enabled: boolean) =>
  useRpcPages('taskContent.voiceNotes', { taskId }, (page) => page.nextCursor, { enabled })
