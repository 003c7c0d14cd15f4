//! `notification.reach`: who the notification reached, with the days after which an
//! unopened message counts as not reached.

import { keepPreviousData } from '@tanstack/react-query'

import { useRpcQuery } from '@/lib/rpc'

/** The counts, and one page of the deliveries `show` picks (ALL, NOT_REACHED or a state). */
export const useReach = (id: string, days: number, show: string, page: number) =>
  useRpcQuery('notification.reach', { id, days, show, page }, { placeholderData: keepPreviousData })

/** The office's list of who was not reached, as a CSV file or a paper list (PDF). */
export const notReachedUrl = (id: string, days: number, format: 'csv' | 'pdf') =>
  `/api/reach/${encodeURIComponent(id)}/not-reached?format=${format}&days=${days}`
