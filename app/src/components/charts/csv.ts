//! CSV for the charts' numbers: quoted where needed (RFC 4180), and a download of it.

export type CsvValue = string | number | null | undefined

/** One CSV line per row, the header first; `\r\n` between lines. */
export function toCsv(headers: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const cell = (value: CsvValue) => {
    const text = value === null || value === undefined ? '' : String(value)
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
  }
  return [headers, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n'
}

/** Saves `csv` as `filename` through a temporary link. */
export function downloadCsv(filename: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1_000)
}
