//! /leaders/organisations (Switch Organisations, MAT users): the trust's schools with a few
//! figures each; 'Switch' makes the session act in that school (every page follows it).

import { Badge } from '@/components/ui/badge'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'
import { useSwitchOrganisation } from '@/lib/organisation'
import { pupilWords } from '@/lib/pupil-word'
import { errorMessage } from '@/lib/rpc'

import { useOrganisations } from '../api/organisations'

export function SwitchOrganisationsPage() {
  const organisations = useOrganisations()
  const switchOrganisation = useSwitchOrganisation()
  const { toast } = useToast()

  const onSwitch = async (schoolId: string) => {
    try {
      const answer = await switchOrganisation.mutateAsync({ schoolId })
      toast({ title: `You are now working in ${answer.name}.`, tone: 'success' })
    } catch (error) {
      toast(failureToast(error))
    }
  }

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-3xl font-bold tracking-tight">Switch Organisations</h1>
        <p className="text-muted-foreground">
          Choose the school you are working in. Every page then shows that school's people, tasks and messages.
        </p>
      </div>
      {organisations.isError && <Alert>{errorMessage(organisations.error)}</Alert>}
      {organisations.isPending && <p role="status">Loading the organisations…</p>}
      {organisations.data && organisations.data.organisations.length === 0 && (
        <p className="text-muted-foreground">Your account belongs to no trust, so there is no other school to switch to.</p>
      )}
      {organisations.data && organisations.data.organisations.length > 0 && (
        <ul className="space-y-3" aria-label="Organisations">
          {organisations.data.organisations.map((school) => (
            <li key={school.id} className="rounded-lg border border-border p-4">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div className="space-y-1">
                  <h2 className="text-lg font-semibold">{school.name}</h2>
                  <p className="text-sm text-muted-foreground">
                    {[school.orgType === 'BUSINESS' ? 'Business' : 'School', school.postcode, school.trustName]
                      .filter(Boolean)
                      .join(' · ')}
                  </p>
                  <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
                    <div className="flex gap-1">
                      <dt className="text-muted-foreground">Users</dt>
                      <dd>{school.users}</dd>
                    </div>
                    <div className="flex gap-1">
                      <dt className="text-muted-foreground">{pupilWords(school.orgType).Many}</dt>
                      <dd>{school.pupils}</dd>
                    </div>
                    <div className="flex gap-1">
                      <dt className="text-muted-foreground">Tasks in the last 30 days</dt>
                      <dd>{school.recentTasks}</dd>
                    </div>
                  </dl>
                </div>
                <div className="flex items-center gap-2">
                  {school.home && <Badge variant="outline">Your school</Badge>}
                  {school.active ? (
                    <Badge>Active</Badge>
                  ) : (
                    <Button
                      size="sm"
                      aria-label={`Switch to ${school.name}`}
                      disabled={switchOrganisation.isPending}
                      onClick={() => void onSwitch(school.id)}
                    >
                      Switch
                    </Button>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
