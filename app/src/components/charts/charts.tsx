//! The chart pictures (Recharts, the shadcn charts convention): lines, grouped bars and
//! stacked bars over rows of numbers. Colours are the theme's chart variables. Import this
//! module only from lazily loaded pages: Recharts stays out of the first page's bundle.

import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts'

export interface Series {
  key: string
  label: string
  color: string
}

export const CHART_COLORS = {
  primary: 'var(--color-chart-1, #2563eb)',
  secondary: 'var(--color-chart-2, #16a34a)',
  positive: 'var(--color-chart-positive, #16a34a)',
  neutral: 'var(--color-chart-neutral, #94a3b8)',
  negative: 'var(--color-chart-negative, #dc2626)',
  accent: 'var(--color-chart-3, #9333ea)',
}

type Row = Record<string, string | number | null>

const axis = { fontSize: 12 }

export function LinesChart({ data, x, series, unit }: { data: Row[]; x: string; series: Series[]; unit?: string }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey={x} tick={axis} />
        <YAxis tick={axis} unit={unit} />
        <Tooltip />
        <Legend />
        {series.map((s) => (
          <Line key={s.key} type="monotone" dataKey={s.key} name={s.label} stroke={s.color} connectNulls isAnimationActive={false} />
        ))}
      </LineChart>
    </ResponsiveContainer>
  )
}

export function BarsChart({
  data,
  x,
  series,
  stacked = false,
  unit,
}: {
  data: Row[]
  x: string
  series: Series[]
  stacked?: boolean
  unit?: string
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey={x} tick={axis} />
        <YAxis tick={axis} unit={unit} />
        <Tooltip />
        <Legend />
        {series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.label}
            fill={s.color}
            stackId={stacked ? 'stack' : undefined}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  )
}
