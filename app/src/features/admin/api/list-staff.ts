//! `admin.listStaff`: the school's teachers and admins.

import { useRpcQuery } from '@/lib/rpc'

export const useStaff = () => useRpcQuery('admin.listStaff')
