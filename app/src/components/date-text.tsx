//! A `<time>` showing a date as dd/MM/yyyy, HH:mm (the core's format), or `empty` when there is none.

import { useFormattedDate } from '@/lib/use-formatted-date'

export function DateText({ date, withTime = true, empty = '—' }: { date: Date | null | undefined; withTime?: boolean; empty?: string }) {
  const text = useFormattedDate(date, withTime)
  if (!date) return <span>{empty}</span>
  return <time dateTime={date.toISOString()}>{text}</time>
}
