//! Dates as the spec shows them (dd/MM/yyyy, HH:mm), formatted by the wasm core's `formatDate`.

import { useQuery } from '@tanstack/react-query'

import { getCore } from '@/lib/core'

/** `date` in the viewer's local time, formatted by the core; '' until it answers. */
export function useFormattedDate(date: Date | null | undefined, withTime = true): string {
  // The core formats a time already shifted to local time.
  const millis = date ? date.getTime() - date.getTimezoneOffset() * 60_000 : null
  const { data } = useQuery({
    queryKey: ['core', 'formatDate', millis, withTime],
    enabled: millis !== null,
    staleTime: Infinity,
    queryFn: () => getCore().formatDate(millis!, withTime),
  })
  return millis === null ? '' : (data ?? '')
}
