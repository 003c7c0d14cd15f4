//! `microsoft.browse {driveId?, itemId?}`: one OneDrive or SharePoint folder, folders first
//! (the caller's OneDrive root when both are null).

import type { MicrosoftItem } from '@/generated/rpc-types'
import { useRpcQuery } from '@/lib/rpc'

export type { MicrosoftItem }

/** A folder to list: `null` ids mean the root of the caller's OneDrive. */
export interface MicrosoftFolder {
  driveId: string | null
  itemId: string | null
}

export const useMicrosoftBrowse = (folder: MicrosoftFolder, enabled: boolean) =>
  useRpcQuery('microsoft.browse', folder, { enabled })
