//! `admin.refusedAddresses`: the school's pupils whose own or parent's address a mail
//! server refused (docs/bounces.md). Saving the pupil's address again lifts the refusal.

import { useRpcQuery } from '@/lib/rpc'

export const useRefusedAddresses = () => useRpcQuery('admin.refusedAddresses', undefined)
