//! `microsoft.recordings`: the recordings of Teams meetings the caller organised in the
//! last 30 days, newest first, each with Teams' own transcript id when there is one.

import type { MeetingRecording } from '@/generated/rpc-types'
import { useRpcQuery } from '@/lib/rpc'

export type { MeetingRecording }

export const useMicrosoftRecordings = (enabled: boolean) => useRpcQuery('microsoft.recordings', undefined, { enabled })
