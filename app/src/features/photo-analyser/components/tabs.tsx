//! Accessible tabs (WAI-ARIA tabs pattern): a tablist whose arrow keys, Home and End move
//! between enabled tabs, and panels labelled by their tab. Controlled: the dialog decides
//! which tab shows, because it also moves between them on its own.

import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react'

import { cn } from '@/lib/utils'

export interface TabSpec<T extends string> {
  value: T
  label: string
  disabled?: boolean
}

export function useTabIds(): (value: string) => { tab: string; panel: string } {
  const base = useId()
  return (value) => ({ tab: `${base}-tab-${value}`, panel: `${base}-panel-${value}` })
}

export function TabList<T extends string>({
  label,
  tabs,
  value,
  onChange,
  ids,
}: {
  label: string
  tabs: TabSpec<T>[]
  value: T
  onChange(value: T): void
  ids: ReturnType<typeof useTabIds>
}) {
  const list = useRef<HTMLDivElement>(null)
  const enabled = tabs.filter((tab) => !tab.disabled)

  const onKeyDown = (event: KeyboardEvent) => {
    const at = enabled.findIndex((tab) => tab.value === value)
    let next: number | undefined
    if (event.key === 'ArrowRight') next = (at + 1) % enabled.length
    else if (event.key === 'ArrowLeft') next = (at - 1 + enabled.length) % enabled.length
    else if (event.key === 'Home') next = 0
    else if (event.key === 'End') next = enabled.length - 1
    if (next === undefined) return
    event.preventDefault()
    const target = enabled[next].value
    onChange(target)
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(ids(target).tab)}`)?.focus()
  }

  return (
    <div ref={list} role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex gap-1 rounded-md bg-muted p-1">
      {tabs.map((tab) => {
        const selected = tab.value === value
        return (
          <button
            key={tab.value}
            id={ids(tab.value).tab}
            type="button"
            role="tab"
            aria-selected={selected}
            // Only the selected tab's panel is in the page.
            aria-controls={selected ? ids(tab.value).panel : undefined}
            tabIndex={selected ? 0 : -1}
            disabled={tab.disabled}
            onClick={() => onChange(tab.value)}
            className={cn(
              'flex-1 rounded px-3 py-1.5 text-sm font-medium text-muted-foreground outline-none focus-visible:ring-3 focus-visible:ring-ring disabled:opacity-50',
              selected && 'bg-background text-foreground shadow-sm',
            )}
          >
            {tab.label}
          </button>
        )
      })}
    </div>
  )
}

export function TabPanel({
  value,
  ids,
  children,
}: {
  value: string
  ids: ReturnType<typeof useTabIds>
  children: ReactNode
}) {
  return (
    <div role="tabpanel" id={ids(value).panel} aria-labelledby={ids(value).tab} tabIndex={0} className="space-y-4 outline-none focus-visible:ring-3 focus-visible:ring-ring rounded-md">
      {children}
    </div>
  )
}
