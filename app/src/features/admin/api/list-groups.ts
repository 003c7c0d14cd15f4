//! `admin.listClasses`, `admin.listYearGroups`, `admin.listFormGroups`: the three group lists
//! (one shape, one file).

import { useRpcQuery } from '@/lib/rpc'

export const useClasses = () => useRpcQuery('admin.listClasses')
export const useYearGroups = () => useRpcQuery('admin.listYearGroups')
export const useFormGroups = () => useRpcQuery('admin.listFormGroups')
