//! `admin.schoolSettings`: the admin's school (name, postcode, type, parent e-mail settings).

import { useRpcQuery } from '@/lib/rpc'

export const useSchoolSettings = () => useRpcQuery('admin.schoolSettings', undefined, { retry: false })
