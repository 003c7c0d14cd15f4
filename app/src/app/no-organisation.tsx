//! The superadmin's "No organisation chosen" page (see require-organisation.tsx): the page's
//! title, its main action disabled, and one empty state with the organisation picker.

import { Building2 } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'

import { EmptyState } from '@/components/empty-state'
import { Button } from '@/components/ui/button'

import { isNavItemActive, LEADERS_NAV, PUPIL_NAV } from './shell/navigation'

const OrganisationPickerDialog = lazy(() => import('./shell/organisation-picker-dialog'))

/** Each school page's main action, shown disabled while no organisation is chosen. */
const MAIN_ACTIONS: Record<string, string> = {
  '/leaders': 'New task',
  '/leaders/tasks': 'New task',
  '/leaders/users': 'Invite user',
  '/leaders/report-generator': 'Generate',
  '/leaders/templates': 'Create template',
}

const CHOOSE_FIRST = 'Choose an organisation to see its data here.'

export default function NoOrganisation({ pathname, search }: { pathname: string; search: string }) {
  const [open, setOpen] = useState(false)
  const [loaded, setLoaded] = useState(false)
  const page = [...PUPIL_NAV, ...LEADERS_NAV].find((item) => isNavItemActive(item, pathname, search))
  const title = page?.label ?? 'Choose an organisation'
  const action = MAIN_ACTIONS[pathname]
  const choose = () => {
    setLoaded(true)
    setOpen(true)
  }
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {action && (
          <Button disabled aria-describedby="no-organisation-why">
            {action}
          </Button>
        )}
      </div>
      <EmptyState
        icon={Building2}
        title="No organisation chosen"
        action={<Button onClick={choose}>Choose an organisation</Button>}
      >
        <span id="no-organisation-why">{CHOOSE_FIRST}</span> Superadmins work in one organisation at a time; each
        switch is recorded in the audit log.
      </EmptyState>
      {loaded && (
        <Suspense fallback={null}>
          <OrganisationPickerDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </div>
  )
}
