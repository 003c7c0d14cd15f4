//! The header's organisation: for a superadmin a searchable picker of every organisation
//! (choosing one switches the session through `organisation.switch`, recorded in the audit
//! log); for MAT users and organisation admins the name of the school the session acts in.

import { Command } from 'cmdk'
import { useState } from 'react'
import { Link } from 'react-router'

import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toaster'
import type { SessionUser } from '@/lib/auth-client'
import { failureToast } from '@/lib/form-errors'
import { useSwitchOrganisation } from '@/lib/organisation'
import { useRpcQuery } from '@/lib/rpc'

const itemClass =
  'flex cursor-pointer items-center justify-between gap-3 rounded-md px-3 py-2 text-sm data-[selected=true]:bg-muted'

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
        className="hidden items-center rounded-md px-2 text-sm font-medium text-foreground hover:underline sm:flex"
        aria-label={`Working in ${user.schoolName}: switch organisations`}
        data-testid="active-organisation"
      >
        {name}
      </Link>
    ) : (
      <span className="hidden text-sm font-medium sm:flex" data-testid="active-organisation">
        {name}
      </span>
    )
  }
  return null
}

function OrganisationPicker({ user }: { user: SessionUser }) {
  const [open, setOpen] = useState(false)
  const organisations = useRpcQuery('organisation.list', undefined, { enabled: open, staleTime: 30_000 })
  const switchOrganisation = useSwitchOrganisation()
  const { toast } = useToast()

  const choose = async (schoolId: string) => {
    setOpen(false)
    try {
      const answer = await switchOrganisation.mutateAsync({ schoolId })
      toast({ title: `You are now working in ${answer.name}.`, tone: 'success' })
    } catch (error) {
      toast(failureToast(error))
    }
  }

  const label = pickerLabel(user.schoolName)
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="max-w-64"
        onClick={() => setOpen(true)}
        data-testid="organisation-picker"
      >
        <span className="truncate">{label}</span>
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="top-[15%] max-w-xl translate-y-0 overflow-hidden p-0">
          <DialogTitle className="sr-only">Choose an organisation</DialogTitle>
          <DialogDescription className="sr-only">
            Every page then shows the chosen organisation's data. Each switch is recorded in the audit log.
          </DialogDescription>
          <Command label="Organisations" className="flex max-h-[min(650px,80dvh)] flex-col">
            <Command.Input
              placeholder="Search organisations..."
              aria-label="Search organisations"
              className="h-12 w-full border-b border-border bg-background px-4 text-sm outline-none"
            />
            <Command.List className="min-h-0 overflow-y-auto p-2">
              {organisations.isPending && <Command.Loading>Loading the organisations…</Command.Loading>}
              <Command.Empty className="px-3 py-6 text-center text-sm text-muted-foreground">
                Nothing found...
              </Command.Empty>
              {organisations.data?.organisations.map((school) => (
                <Command.Item
                  key={school.id}
                  value={`${school.name} ${school.postcode ?? ''} ${school.trustName ?? ''} ${school.id}`}
                  className={itemClass}
                  onSelect={() => void choose(school.id)}
                >
                  <span className="text-foreground">{school.name}</span>
                  <span className="text-xs text-muted-foreground">
                    {[school.postcode, school.trustName, school.active ? 'current' : null].filter(Boolean).join(' · ')}
                  </span>
                </Command.Item>
              ))}
            </Command.List>
          </Command>
        </DialogContent>
      </Dialog>
    </>
  )
}
