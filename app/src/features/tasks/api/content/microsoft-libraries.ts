//! `microsoft.libraries`: the document libraries of the SharePoint sites the caller follows
//! ("Site › Library"), places the Files tab can start from besides their OneDrive.

import type { DocumentLibrary } from '@/generated/rpc-types'
import { useRpcQuery } from '@/lib/rpc'

export type { DocumentLibrary }

export const useMicrosoftLibraries = (enabled: boolean) => useRpcQuery('microsoft.libraries', undefined, { enabled })
