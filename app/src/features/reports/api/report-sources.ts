//! `report.sources`: the tasks (filtered by search, dates and tag), every tag, and the
//! caller's voice notes, for the report form's pickers.

import { keepPreviousData } from '@tanstack/react-query'

import { useRpcQuery, type RpcInput, type RpcOutput } from '@/lib/rpc'

export type SourceFilters = NonNullable<RpcInput<'report.sources'>>
export type ReportSources = RpcOutput<'report.sources'>
export type SourceTask = ReportSources['tasks'][number]
export type SourceVoiceNote = ReportSources['voiceNotes'][number]

/** Empty filters are left out, so the cache key stays stable. */
export function cleanFilters(filters: SourceFilters): SourceFilters {
  const out: SourceFilters = {}
  if (filters.search?.trim()) out.search = filters.search.trim()
  if (filters.from) out.from = filters.from
  if (filters.to) out.to = filters.to
  if (filters.tag) out.tag = filters.tag
  return out
}

/** `pollMs` refetches while something is on its way (a transcript being made). */
export const useReportSources = (filters: SourceFilters, pollMs?: number) =>
  useRpcQuery('report.sources', cleanFilters(filters), {
    placeholderData: keepPreviousData,
    retry: false,
    refetchInterval: pollMs ?? false,
  })
