//! `insights.filters`, `insights.overview` and `insights.pupils`: what the Insights page
//! offers, its charts' numbers and the pupils to look at, for the chosen range and filters.

import type { InsightsInput } from '@/generated/rpc-types'
import { useRpcQuery } from '@/lib/rpc'

export const useInsightsFilters = () => useRpcQuery('insights.filters', undefined, { retry: false })

export const useInsightsOverview = (filters: InsightsInput) =>
  useRpcQuery('insights.overview', filters, { retry: false, placeholderData: (previous) => previous })

export const useInsightsPupils = (filters: InsightsInput, last: number) =>
  useRpcQuery('insights.pupils', { filters, last }, { retry: false, placeholderData: (previous) => previous })
