//! Dates as the product shows them (spec section 9): dd/MM/yyyy, optionally ', HH:mm',
//! in the browser's local time. The same rule as the core's `formatDate`, synchronous
//! for rendering lists.

const pad = (n: number) => String(n).padStart(2, '0')

export function formatDate(value: Date | string | number, withTime = false): string {
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  const day = `${pad(date.getDate())}/${pad(date.getMonth() + 1)}/${date.getFullYear()}`
  return withTime ? `${day}, ${pad(date.getHours())}:${pad(date.getMinutes())}` : day
}

/** `value` as a machine-readable `<time dateTime>` attribute. */
export function isoDate(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? '' : date.toISOString()
}
