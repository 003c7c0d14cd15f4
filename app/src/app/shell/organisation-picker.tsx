//! The header's organisation: for a superadmin a searchable picker of every organisation
//! (choosing one switches the session through `organisation.switch`, recorded in the audit
//! log); for MAT users and organisation admins the name of the school the session acts in.

import { Building2 } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import { Link } from 'react-router'

import { Button } from '@/components/ui/button'
import type { SessionUser } from '@/lib/auth-client'

const OrganisationPickerDialog = lazy(() => import('./organisation-picker-dialog'))

/** The label of the superadmin's picker button. */
export function pickerLabel(schoolName: string | null | undefined): string {
  return schoolName ? `Organisation: ${schoolName}` : 'Choose an organisation'
}

export function HeaderOrganisation({ user }: { user: SessionUser }) {
  if (user.role === 'SUPERADMIN') return <OrganisationPicker user={user} />
  if ((user.role === 'MAT_USER' || user.role === 'ORG_ADMIN') && user.schoolName) {
    const name = <span className="max-w-48 truncate">{user.schoolName}</span>
    return user.role === 'MAT_USER' ? (
      <Link
        to="/leaders/organisations"
        className="hidden items-center rounded-md px-2 text-sm font-medium text-foreground hover:underline lg:flex"
        aria-label={`Working in ${user.schoolName}: switch organisations`}
        data-testid="active-organisation"
      >
        {name}
      </Link>
    ) : (
      <span className="hidden text-sm font-medium lg:flex" data-testid="active-organisation">
        {name}
      </span>
    )
  }
  return null
}

function OrganisationPicker({ user }: { user: SessionUser }) {
  const [open, setOpen] = useState(false)
  const [loaded, setLoaded] = useState(false)
  return (
    <>
      {/* Under 1024 px only the icon shows; the button keeps its words as its name. */}
      <Button
        variant="outline"
        size="sm"
        className="max-w-64 px-2 lg:px-3"
        aria-label={pickerLabel(user.schoolName)}
        onClick={() => {
          setLoaded(true)
          setOpen(true)
        }}
        data-testid="organisation-picker"
      >
        <Building2 aria-hidden="true" className="size-4 shrink-0" />
        <span className="hidden truncate lg:inline">{pickerLabel(user.schoolName)}</span>
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <OrganisationPickerDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  )
}
