//! Week labels: the server names a week by its Monday (`yyyy-MM-dd`); pages show dd/MM/yyyy.

export function weekLabel(week: string): string {
  const [y, m, d] = week.split('-')
  return y && m && d ? `${d}/${m}/${y}` : week
}
