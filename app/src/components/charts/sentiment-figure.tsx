//! 'Feedback sentiment': marks per week by the sentiment of their feedback, as stacked bars
//! with the table view, the same on the leaders' Insights page and the pupil profile.
//! Loads Recharts: import it only from lazily loaded pages.

import type { SentimentWeek } from '@/generated/rpc-types'

import { ChartFigure } from './chart-figure'
import { BarsChart, CHART_COLORS } from './charts'
import { weekLabel } from './weeks'

export function SentimentFigure({
  weeks,
  description,
  empty,
}: {
  weeks: SentimentWeek[]
  description: string
  empty?: string
}) {
  const rows = weeks.filter((w) => w.positive + w.neutral + w.negative > 0)
  return (
    <ChartFigure
      title="Feedback sentiment"
      description={description}
      filename="feedback-sentiment.csv"
      empty={empty}
      table={{
        headers: ['Week of', 'Positive', 'Neutral', 'Negative'],
        rows: rows.map((w) => [weekLabel(w.week), w.positive, w.neutral, w.negative]),
      }}
    >
      <BarsChart
        stacked
        data={weeks.map((w) => ({ week: weekLabel(w.week), positive: w.positive, neutral: w.neutral, negative: w.negative }))}
        x="week"
        series={[
          { key: 'positive', label: 'Positive', color: CHART_COLORS.positive },
          { key: 'neutral', label: 'Neutral', color: CHART_COLORS.neutral },
          { key: 'negative', label: 'Negative', color: CHART_COLORS.negative },
        ]}
      />
    </ChartFigure>
  )
}
