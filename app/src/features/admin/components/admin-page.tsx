//! /admin and /admin/{activeTab}: Manage School — pupils, staff, classes, year groups, form
//! groups, settings, the MIS sync and privacy requests of the admin's school. Only admins get data: anyone else is answered
//! FORBIDDEN by the server, and the page says so.

import { NavLink, useParams } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { errorCode, errorMessage } from '@/lib/rpc'
import { cn } from '@/lib/utils'
import { usePupilWord } from '@/lib/pupil-word'

import { useSchoolSettings } from '../api/school-settings'
import { GroupsTab } from './groups-tab'
import { MisSyncTab } from './mis-sync-tab'
import { PrivacyTab } from './privacy-tab'
import { PupilsTab } from './pupils-tab'
import { SettingsTab } from './settings-tab'
import { StaffTab } from './staff-tab'

const TABS = [
  ['pupils', 'Pupils'],
  ['staff', 'Staff'],
  ['classes', 'Classes'],
  ['year-groups', 'Year groups'],
  ['form-groups', 'Form groups'],
  ['settings', 'Settings'],
  ['sync', 'MIS sync'],
  ['privacy', 'Privacy'],
] as const

type Tab = (typeof TABS)[number][0]

/** Brings the chosen tab into the row's view, sideways only (the page does not jump). */
function scrollIntoRow(link: HTMLAnchorElement | null) {
  const row = link?.parentElement
  if (!link || !row || row.scrollWidth <= row.clientWidth) return
  row.scrollLeft = link.offsetLeft - row.offsetLeft - (row.clientWidth - link.offsetWidth) / 2
}

export function AdminPage() {
  const { activeTab } = useParams()
  const tab: Tab | undefined = activeTab === undefined ? 'pupils' : TABS.find(([key]) => key === activeTab)?.[0]
  const settings = useSchoolSettings()
  const word = usePupilWord()

  if (settings.isError && errorCode(settings.error) === 'FORBIDDEN') {
    return (
      <div className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">Manage School</h1>
        <p className="text-muted-foreground">
          {/* A superadmin who chose no organisation yet is told to pick one in the header. */}
          {errorMessage(settings.error).startsWith('No organisation chosen')
            ? errorMessage(settings.error)
            : 'You do not have access to this page.'}
        </p>
      </div>
    )
  }

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">Manage School</h1>
        {settings.data && <p className="text-muted-foreground">{settings.data.name}</p>}
      </div>
      {/* One row that scrolls sideways on a phone, the chosen tab brought into view. */}
      <nav
        aria-label="Manage School sections"
        className="flex gap-1 overflow-x-auto overscroll-x-contain border-b border-border whitespace-nowrap"
      >
        {TABS.map(([key, label]) => (
          <NavLink
            key={key}
            to={`/admin/${key}`}
            aria-current={tab === key ? 'page' : undefined}
            ref={tab === key ? scrollIntoRow : undefined}
            className={cn(
              'shrink-0 rounded-t-md border-b-2 px-3 py-2 text-sm font-medium',
              tab === key ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
            )}
          >
            {key === 'pupils' ? word.Many : label}
          </NavLink>
        ))}
      </nav>
      {settings.isError && errorCode(settings.error) !== 'FORBIDDEN' && <Alert>{errorMessage(settings.error)}</Alert>}
      {tab === undefined && <p>This section does not exist.</p>}
      {tab === 'pupils' && <PupilsTab />}
      {tab === 'staff' && <StaffTab />}
      {tab === 'classes' && <GroupsTab kind="class" />}
      {tab === 'year-groups' && <GroupsTab kind="yearGroup" />}
      {tab === 'form-groups' && <GroupsTab kind="formGroup" />}
      {tab === 'settings' && <SettingsTab />}
      {tab === 'sync' && <MisSyncTab />}
      {tab === 'privacy' && <PrivacyTab />}
    </div>
  )
}
