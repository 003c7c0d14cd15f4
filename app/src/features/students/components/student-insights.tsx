//! The pupil profile's view of Insights: hand-ins (handed in, on time, missing), marking
//! turnaround and feedback sentiment per week, with the same chart pieces as the leaders'
//! Insights page (`components/charts`).

import { ChartFigure } from '@/components/charts/chart-figure'
import { BarsChart, CHART_COLORS, LinesChart } from '@/components/charts/charts'
import { SentimentFigure } from '@/components/charts/sentiment-figure'
import { weekLabel } from '@/components/charts/weeks'
import { Alert } from '@/components/ui/alert'
import { errorMessage } from '@/lib/rpc'

import { useStudentInsights } from '../api/student-insights'

export function StudentInsights({ studentId }: { studentId: string }) {
  const insights = useStudentInsights(studentId)
  if (insights.isPending) return <p role="status">Loading…</p>
  if (insights.isError) return <Alert>The charts could not be loaded: {errorMessage(insights.error)}</Alert>
  const data = insights.data
  const handIns = data.handIns.filter((w) => w.handedIn + w.missing > 0)
  const turnaround = data.turnaround.filter((w) => w.marks > 0)
  return (
    <div className="grid min-w-0 gap-6 xl:grid-cols-2">
      <p className="text-sm text-muted-foreground xl:col-span-2">
        From {weekLabel(data.from)} to {weekLabel(data.to)}.
      </p>
      <ChartFigure
        title="Hand-ins"
        description="Assignments handed in, on time and missing, by the week they were due."
        filename="hand-ins.csv"
        empty="No assignment was due in these weeks."
        table={{
          headers: ['Week of', 'Handed in', 'On time', 'Missing'],
          rows: handIns.map((w) => [weekLabel(w.week), w.handedIn, w.onTime, w.missing]),
        }}
      >
        <BarsChart
          data={data.handIns.map((w) => ({ week: weekLabel(w.week), onTime: w.onTime, late: w.handedIn - w.onTime, missing: w.missing }))}
          x="week"
          stacked
          series={[
            { key: 'onTime', label: 'On time', color: CHART_COLORS.positive },
            { key: 'late', label: 'Late', color: CHART_COLORS.neutral },
            { key: 'missing', label: 'Missing', color: CHART_COLORS.negative },
          ]}
        />
      </ChartFigure>
      <ChartFigure
        title="Marking turnaround"
        description="Median hours from hand-in to mark, by the week marked."
        filename="marking-turnaround.csv"
        empty="Nothing was marked in these weeks."
        table={{
          headers: ['Week of', 'Marks', 'Median (hours)'],
          rows: turnaround.map((w) => [weekLabel(w.week), w.marks, w.medianHours]),
        }}
      >
        <LinesChart
          data={data.turnaround.map((w) => ({ week: weekLabel(w.week), median: w.medianHours }))}
          x="week"
          unit="h"
          series={[{ key: 'median', label: 'Median hours', color: CHART_COLORS.primary }]}
        />
      </ChartFigure>
      <SentimentFigure
        weeks={data.sentiment}
        description="Marks each week, by the sentiment of their feedback."
        empty="No feedback in these weeks."
      />
    </div>
  )
}
