//! `report.sources`: the first page of the tasks (filtered by search, dates and tag) with their
//! total, every tag, and the first page of the caller's voice notes, for the report form's
//! pickers; and `report.sourcesMore`: the pages after, one list at a time (docs/scaling.md
//! "Paged lists").

import { keepPreviousData } from '@tanstack/react-query'

import { useMorePages, useRpcQuery, type RpcInput, type RpcOutput } from '@/lib/rpc'

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

/**
 * More of one picker's list after the first page (`useMorePages`): nothing until `more()` is
 * first called with where `report.sources` ended (`tasksNext` / `voiceNotesNext`), then a page
 * each call; new filters start again from the first page. `pollMs` refetches the pages loaded
 * too.
 */
export const useMoreSources = (filters: SourceFilters, list: 'TASKS' | 'VOICE_NOTES', pollMs?: number) =>
  useMorePages('report.sourcesMore', { ...cleanFilters(filters), list }, (page) => page.nextCursor, {
    refetchInterval: pollMs ?? false,
  })

/** `rows` with each id once (the first): a row can move up onto the first page between pages. */
export function onceEach<T extends { id: string }>(rows: T[]): T[] {
  const seen = new Set<string>()
  return rows.filter((row) => !seen.has(row.id) && (seen.add(row.id), true))
}
