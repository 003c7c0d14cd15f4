//! The superadmin's organisation picker dialog: every organisation, searchable (cmdk);
//! choosing one switches the session (`organisation.switch`, recorded in the audit log).
//! Loaded on first open (React.lazy), so cmdk stays out of the shell's bundle.

import { Command } from 'cmdk'

import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'
import { useSwitchOrganisation } from '@/lib/organisation'
import { useRpcQuery } from '@/lib/rpc'

const itemClass =
  'flex cursor-pointer items-center justify-between gap-3 rounded-md px-3 py-2 text-sm data-[selected=true]:bg-muted'

export default function OrganisationPickerDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const organisations = useRpcQuery('organisation.list', undefined, { enabled: open, staleTime: 30_000 })
  const switchOrganisation = useSwitchOrganisation()
  const { toast } = useToast()

  const choose = async (schoolId: string) => {
    onOpenChange(false)
    try {
      const answer = await switchOrganisation.mutateAsync({ schoolId })
      toast({ title: `You are now working in ${answer.name}.`, tone: 'success' })
    } catch (error) {
      toast(failureToast(error))
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="top-[15%] max-w-xl translate-y-0 overflow-hidden p-0">
        <DialogTitle className="sr-only">Choose an organisation</DialogTitle>
        <DialogDescription className="sr-only">
          Every page then shows the chosen organisation's data. Each switch is recorded in the audit log.
        </DialogDescription>
        <Command label="Search organisations" className="flex max-h-[min(650px,80dvh)] flex-col">
          <Command.Input
            placeholder="Search organisations..."
            aria-label="Search organisations"
            className="h-12 w-full border-b border-border bg-background px-4 text-sm outline-none"
          />
          <Command.List className="min-h-0 overflow-y-auto p-2">
            {organisations.isPending && <Command.Loading>Loading the organisations…</Command.Loading>}
            <Command.Empty className="px-3 py-6 text-center text-sm text-muted-foreground">Nothing found...</Command.Empty>
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
  )
}
