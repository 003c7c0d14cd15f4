//! `/leaders/insights`: hand-in, turnaround, sentiment and reach charts for a range and
//! filters, each with its table and CSV, and the pupils to look at (docs/insights.md).
//! Admins see the whole school, MAT users their trust (with a school filter), teachers the
//! assignments they sent. Loaded lazily with Recharts.

import { useState } from 'react'
import { Link } from 'react-router'

import { ChartFigure } from '@/components/charts/chart-figure'
import { BarsChart, CHART_COLORS, LinesChart } from '@/components/charts/charts'
import { SentimentFigure } from '@/components/charts/sentiment-figure'
import { weekLabel } from '@/components/charts/weeks'
import { Cell, DataTable } from '@/components/data-table'
import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import type { InsightsChoice, InsightsInput, InsightsOverview, TurnaroundRow } from '@/generated/rpc-types'
import { downloadCsv, toCsv } from '@/components/charts/csv'
import { formatDate, isoDate } from '@/lib/format-date'
import { errorMessage } from '@/lib/rpc'

import { useInsightsFilters, useInsightsOverview, useInsightsPupils } from '../api/insights'

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** The last 12 weeks up to today. */
export function defaultRange(today = new Date()): { from: string; to: string } {
  const from = new Date(today)
  from.setUTCDate(from.getUTCDate() - (12 * 7 - 1))
  return { from: isoDay(from), to: isoDay(today) }
}

const EMPTY: InsightsInput = {
  from: null,
  to: null,
  schoolId: null,
  yearGroupId: null,
  formGroupId: null,
  classId: null,
  teacherId: null,
}

function Choose({
  label,
  all,
  value,
  options,
  onChange,
}: {
  label: string
  all: string
  value: string | null
  options: InsightsChoice[]
  onChange: (value: string | null) => void
}) {
  return (
    <FormField label={label}>
      <Select value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </Select>
    </FormField>
  )
}

function HandIns({ data }: { data: InsightsOverview }) {
  const rows = data.handIns.filter((w) => w.assigned > 0)
  return (
    <ChartFigure
      title="Hand-in rate"
      description="Share of pupils who handed in, and who handed in on time, by the week the assignment was due."
      filename="hand-in-rate.csv"
      table={{
        headers: ['Week of', 'Assigned', 'Handed in', 'On time', 'Hand-in rate (%)', 'On-time rate (%)'],
        rows: rows.map((w) => [weekLabel(w.week), w.assigned, w.handedIn, w.onTime, w.handInRate, w.onTimeRate]),
      }}
    >
      <LinesChart
        data={data.handIns.map((w) => ({ week: weekLabel(w.week), handIn: w.handInRate, onTime: w.onTimeRate }))}
        x="week"
        unit="%"
        series={[
          { key: 'handIn', label: 'Hand-in rate', color: CHART_COLORS.primary },
          { key: 'onTime', label: 'On-time rate', color: CHART_COLORS.secondary },
        ]}
      />
    </ChartFigure>
  )
}

function turnaroundTable(by: string, list: TurnaroundRow[]) {
  return list.map((t) => [`${by}: ${t.name}`, t.marks, t.medianHours, t.p90Hours])
}

/** `wholeTrust`: a trust of several schools, none chosen: per school (its teachers and classes once one is). */
function Turnaround({ data, wholeTrust }: { data: InsightsOverview; wholeTrust: boolean }) {
  const all = [...data.turnaroundBySchool, ...data.turnaroundByTeacher, ...data.turnaroundByClass]
  return (
    <ChartFigure
      title="Marking turnaround"
      description={
        wholeTrust
          ? 'Hours from hand-in to mark: the median and the 90th percentile, per school. Choose a school to see its teachers and classes.'
          : 'Hours from hand-in to mark: the median and the 90th percentile, per teacher and per class.'
      }
      filename="marking-turnaround.csv"
      table={{
        headers: [wholeTrust ? 'School' : 'Teacher or class', 'Marks', 'Median (hours)', '90th percentile (hours)'],
        rows: [
          ...turnaroundTable('School', data.turnaroundBySchool),
          ...turnaroundTable('Teacher', data.turnaroundByTeacher),
          ...turnaroundTable('Class', data.turnaroundByClass),
        ],
      }}
    >
      <BarsChart
        data={all.map((t) => ({ name: t.name, median: t.medianHours, p90: t.p90Hours }))}
        x="name"
        unit="h"
        series={[
          { key: 'median', label: 'Median', color: CHART_COLORS.primary },
          { key: 'p90', label: '90th percentile', color: CHART_COLORS.accent },
        ]}
      />
    </ChartFigure>
  )
}

const TYPE_NAMES: Record<string, string> = { GENERAL: 'Messages', ASSIGNMENT: 'Assignments' }

function Reach({ data }: { data: InsightsOverview }) {
  return (
    <ChartFigure
      title="Parents reached"
      description="Parent e-mails sent and not bounced, of those sent or not sent (waiting ones are left out)."
      filename="parents-reached.csv"
      table={{
        headers: ['Message type', 'Reached', 'Sent or not sent', 'Reached (%)'],
        rows: data.reach.map((r) => [TYPE_NAMES[r.messageType] ?? r.messageType, r.reached, r.decided, r.share]),
      }}
    >
      <BarsChart
        data={data.reach.map((r) => ({ type: TYPE_NAMES[r.messageType] ?? r.messageType, share: r.share }))}
        x="type"
        unit="%"
        series={[{ key: 'share', label: 'Parents reached', color: CHART_COLORS.primary }]}
      />
    </ChartFigure>
  )
}

function Pupils({ filters, refreshing }: { filters: InsightsInput; refreshing: boolean }) {
  const [last, setLast] = useState(3)
  const pupils = useInsightsPupils(filters, last, refreshing)
  const headers = ['Pupil', 'Form group', 'Why']
  const reasons = (p: { missed: number | null; negativeMarks: number | null; parentsNotReached: number | null }) =>
    [
      p.missed !== null && `No hand-in in the last ${p.missed} assignments`,
      p.negativeMarks !== null && `Only negative feedback in the last four weeks (${p.negativeMarks})`,
      p.parentsNotReached !== null && `Parents not reached in the last month (${p.parentsNotReached})`,
    ].filter((x): x is string => Boolean(x))
  const list = pupils.data ?? []
  return (
    <Section title="Pupils to look at">
      <div className="flex flex-wrap items-end gap-3">
        <FormField label="Assignments without a hand-in">
          <Select value={String(last)} onChange={(e) => setLast(Number(e.target.value))}>
            {[1, 2, 3, 4, 5, 6, 8, 10].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Select>
        </FormField>
        <Button
          variant="outline"
          disabled={list.length === 0}
          onClick={() =>
            downloadCsv('pupils-to-look-at.csv', toCsv(headers, list.map((p) => [p.name, p.formGroup, reasons(p).join('; ')])))
          }
        >
          Download CSV
        </Button>
      </div>
      {pupils.isError && <Alert>The pupils could not be loaded: {errorMessage(pupils.error)}</Alert>}
      {pupils.isPending && <p role="status">Loading…</p>}
      {pupils.data && list.length === 0 && <p className="text-sm text-muted-foreground">No pupil to look at for these filters.</p>}
      {list.length > 0 && (
        <DataTable caption="Pupils to look at" headers={headers}>
          {list.map((p) => (
            <tr key={p.id}>
              <Cell>
                <Link className="text-primary underline-offset-4 hover:underline" to={`/students/${p.id}`}>
                  {p.name}
                </Link>
              </Cell>
              <Cell>{p.formGroup ?? '—'}</Cell>
              <Cell>
                <ul className="space-y-1">
                  {reasons(p).map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  )
}

const SCOPE_TEXT: Record<string, string> = {
  SCHOOL: 'The whole school.',
  TRUST: 'Every school of your trust; choose one to look at it alone.',
  OWN: 'The assignments you sent.',
}

export function InsightsPage() {
  const [range] = useState(defaultRange)
  const [filters, setFilters] = useState<InsightsInput>({ ...EMPTY, ...range })
  const options = useInsightsFilters(filters.schoolId)
  const set = (patch: Partial<InsightsInput>) => setFilters((f) => ({ ...f, ...patch }))
  const overview = useInsightsOverview(filters)
  const o = options.data
  // A trust of several schools with none chosen: its groups, classes, teachers and
  // turnaround come a school at a time.
  const wholeTrust = o?.scope === 'TRUST' && !filters.schoolId && o.schools.length > 1
  return (
    <div className="min-w-0 space-y-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">Insights</h1>
        <p className="text-muted-foreground">
          {o ? SCOPE_TEXT[o.scope] : 'Hand-ins, marking and feedback over time.'}
        </p>
      </div>
      <Section title="Filters">
        {options.isError && <Alert>The filters could not be loaded: {errorMessage(options.error)}</Alert>}
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <FormField label="From">
            <Input type="date" value={filters.from ?? ''} onChange={(e) => set({ from: e.target.value || null })} />
          </FormField>
          <FormField label="To">
            <Input type="date" value={filters.to ?? ''} onChange={(e) => set({ to: e.target.value || null })} />
          </FormField>
          {o && o.scope === 'TRUST' && (
            <Choose
              label="School"
              all="All schools"
              value={filters.schoolId}
              options={o.schools}
              // Another school's groups, classes and teachers mean nothing here.
              onChange={(v) => set({ schoolId: v, yearGroupId: null, formGroupId: null, classId: null, teacherId: null })}
            />
          )}
          {wholeTrust && (
            <p className="self-end text-sm text-muted-foreground sm:col-span-2 lg:col-span-3">
              Choose a school to look at one year group, form group, class or teacher.
            </p>
          )}
          {o && !wholeTrust && !options.isPlaceholderData && (
            <>
              <Choose label="Year group" all="All year groups" value={filters.yearGroupId} options={o.yearGroups} onChange={(v) => set({ yearGroupId: v })} />
              <Choose label="Form group" all="All form groups" value={filters.formGroupId} options={o.formGroups} onChange={(v) => set({ formGroupId: v })} />
              <Choose label="Class" all="All classes" value={filters.classId} options={o.classes} onChange={(v) => set({ classId: v })} />
              {o.scope !== 'OWN' && (
                <Choose label="Teacher" all="All teachers" value={filters.teacherId} options={o.teachers} onChange={(v) => set({ teacherId: v })} />
              )}
            </>
          )}
        </div>
      </Section>
      {overview.isError && <Alert>The insights could not be loaded: {errorMessage(overview.error)}</Alert>}
      {overview.isPending && <p role="status">Loading…</p>}
      {overview.data && overview.data.scope === 'TRUST' && (
        <p className="text-sm text-muted-foreground">
          These figures cover many schools, so they are worked out about once a minute rather than each time you look. These
          were worked out at <time dateTime={isoDate(overview.data.workedOutAt)}>{formatDate(overview.data.workedOutAt, true)}</time>.
          {overview.data.refreshing && ' Newer figures are being worked out, and will show here by themselves in a few seconds.'}
        </p>
      )}
      {overview.data && (
        <div className="grid min-w-0 gap-6 xl:grid-cols-2">
          <HandIns data={overview.data} />
          <Turnaround data={overview.data} wholeTrust={wholeTrust} />
          <SentimentFigure weeks={overview.data.sentiment} description="Marks given each week, by the sentiment of their feedback." />
          <Reach data={overview.data} />
        </div>
      )}
      <Pupils filters={filters} refreshing={overview.data?.refreshing ?? false} />
    </div>
  )
}
