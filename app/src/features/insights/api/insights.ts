//! `insights.filters`, `insights.overview` and `insights.pupils`: what the Insights page
//! offers, its charts' numbers and the pupils to look at, for the chosen range and filters.

import type { InsightsInput } from '@/generated/rpc-types'
import { useRpcQuery } from '@/lib/rpc'

/** What the filters offer; a trust's groups and teachers are those of the chosen school. */
export const useInsightsFilters = (schoolId: string | null) =>
  useRpcQuery('insights.filters', { schoolId }, { retry: false, placeholderData: (previous) => previous })

/**
 * How often the page asks again while a trust's figures are older than their minute and
 * newer ones are being worked out (`refreshing`): they show by themselves when ready.
 */
export const REFRESHING_EVERY_MS = 5_000

export const useInsightsOverview = (filters: InsightsInput) =>
  useRpcQuery('insights.overview', filters, {
    retry: false,
    placeholderData: (previous) => previous,
    refetchInterval: (query) => (query.state.data?.refreshing ? REFRESHING_EVERY_MS : false),
  })

/** `refreshing`: the overview's figures are being worked out again, and these with them. */
export const useInsightsPupils = (filters: InsightsInput, last: number, refreshing: boolean) =>
  useRpcQuery('insights.pupils', { filters, last }, {
    retry: false,
    placeholderData: (previous) => previous,
    refetchInterval: refreshing ? REFRESHING_EVERY_MS : false,
  })
