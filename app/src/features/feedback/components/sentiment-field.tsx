//! The Sentiment radio group of a mark (single, bulk and edit): Neutral, Positive, Negative.

import { useId } from 'react'
import type { UseFormRegisterReturn } from 'react-hook-form'

export const SENTIMENTS = [
  ['NEUTRAL', 'Neutral'],
  ['POSITIVE', 'Positive'],
  ['NEGATIVE', 'Negative'],
] as const

export function SentimentField({ field, error }: { field: UseFormRegisterReturn; error?: string }) {
  const id = useId()
  return (
    <fieldset className="space-y-2" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium">Sentiment</legend>
      <div className="flex flex-wrap gap-4">
        {SENTIMENTS.map(([value, label]) => (
          <label key={value} className="flex items-center gap-2 text-sm">
            <input type="radio" value={value} className="size-4 accent-primary" {...field} />
            {label}
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  )
}
