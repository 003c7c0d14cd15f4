//! The e-mail language select used by the preferences page, Settings and Manage School's
//! pupil record: the core's list of languages (lib/languages), one place that renders it.

import type { ComponentProps } from 'react'

import { Select } from '@/components/ui/input'
import { useLanguageOptions } from '@/lib/languages'

/** A `<select>` of every language a person may choose; `current` (the stored value) is always listed. */
export function LanguageSelect({ current, ...props }: ComponentProps<'select'> & { current: string }) {
  const languages = useLanguageOptions(current)
  return (
    <Select {...props}>
      {languages.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </Select>
  )
}
