//! Manage School › Privacy: requests about one pupil under UK GDPR (the school is the
//! controller). Pick a pupil, then export everything held about them as one zip, or erase
//! them after a confirmation naming them. Below, the log of who opened which pupil's profile.

import { useState } from 'react'

import { DataTable, Cell } from '@/components/data-table'
import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { Pupil } from '@/generated/rpc-types'
import { formatDate, isoDate } from '@/lib/format-date'
import { failureToast } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'
import { usePupilWord } from '@/lib/pupil-word'

import { usePupils } from '../api/list-pupils'
import { exportUrl, useErasePupil, useProfileViews } from '../api/privacy'

const nameOf = (pupil: Pupil) => `${pupil.forename} ${pupil.surname}`

function PupilRequests() {
  const word = usePupilWord()
  const { toast } = useToast()
  const [search, setSearch] = useState('')
  const [chosen, setChosen] = useState<Pupil | null>(null)
  const [confirming, setConfirming] = useState(false)
  const pupils = usePupils(search, null)
  const erase = useErasePupil()

  const onErase = async () => {
    if (!chosen) return
    try {
      await erase.mutateAsync({ id: chosen.id })
      toast({ title: `${nameOf(chosen)} was erased.`, tone: 'success' })
      setConfirming(false)
      setChosen(null)
    } catch (error) {
      toast(failureToast(error))
    }
  }

  return (
    <Section title={`Requests about a ${word.one}`}>
      <p className="text-sm text-muted-foreground">
        The organisation is the controller of its {word.many}' data. Export gives one zip with everything Voicemark holds about a {word.one}:
        profile, parents' addresses and e-mail preferences, submissions with their files, feedback, comments, notification
        receipts and audit entries. Erase deletes the {word.one}, their files and their records; receipts of messages already sent
        are kept without the {word.one}.
      </p>
      <div className="w-72">
        <FormField label={`Find a ${word.one}`}>
          <Input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </FormField>
      </div>
      {pupils.isError && <Alert>{errorMessage(pupils.error)}</Alert>}
      {pupils.data && pupils.data.pupils.length === 0 && <p className="text-sm">No {word.many} match.</p>}
      <DataTable caption={`${word.Many} to choose from`} headers={['Name', 'Year group', 'UPN', '']}>
        {pupils.data?.pupils.slice(0, 10).map((pupil) => (
          <tr key={pupil.id}>
            <Cell>{nameOf(pupil)}</Cell>
            <Cell>{pupil.yearGroup}</Cell>
            <Cell>{pupil.upn}</Cell>
            <Cell>
              <Button
                size="sm"
                variant={chosen?.id === pupil.id ? 'default' : 'outline'}
                aria-pressed={chosen?.id === pupil.id}
                aria-label={`Choose ${nameOf(pupil)}`}
                onClick={() => setChosen(pupil)}
              >
                Choose
              </Button>
            </Cell>
          </tr>
        ))}
      </DataTable>
      {chosen && (
        <div className="space-y-3 rounded-md border border-border p-4" aria-label={`Chosen ${word.one}`} role="region">
          <p className="font-medium">{nameOf(chosen)}</p>
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <a href={exportUrl(chosen.id)} download>
                Export data
              </a>
            </Button>
            <Button onClick={() => setConfirming(true)}>
              Erase {word.one}
            </Button>
          </div>
        </div>
      )}
      <Dialog open={confirming} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogTitle className="text-lg font-semibold">Erase {chosen ? nameOf(chosen) : `this ${word.one}`}?</DialogTitle>
          <DialogDescription className="mt-2 text-sm text-muted-foreground">
            {chosen ? nameOf(chosen) : `The ${word.one}`}, their submissions, files, feedback, comments and e-mail preferences will
            be deleted for good. Export their data first if the request asks for a copy. This cannot be undone.
          </DialogDescription>
          <div className="mt-6 flex justify-end gap-3">
            <DialogClose asChild>
              <Button variant="outline">Cancel</Button>
            </DialogClose>
            <Button onClick={onErase} disabled={erase.isPending}>
              Erase {word.one}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </Section>
  )
}

function ProfileViews() {
  const word = usePupilWord()
  const [page, setPage] = useState(1)
  const views = useProfileViews(page)
  const pages = views.data ? Math.max(1, Math.ceil(views.data.total / views.data.pageSize)) : 1

  return (
    <Section title={`Who opened which ${word.one}'s profile`}>
      {views.isError && <Alert>{errorMessage(views.error)}</Alert>}
      {views.data && views.data.total === 0 && <p className="text-sm">No {word.one}'s profile has been opened yet.</p>}
      <DataTable caption="Profile views" headers={['Who', word.One, 'When']}>
        {views.data?.views.map((view) => (
          <tr key={view.id}>
            <Cell>{view.viewer}</Cell>
            <Cell>{view.pupil}</Cell>
            <Cell>
              <time dateTime={isoDate(view.at)}>{formatDate(view.at, true)}</time>
            </Cell>
          </tr>
        ))}
      </DataTable>
      {pages > 1 && (
        <div className="flex items-center gap-3">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span className="text-sm">
            Page {page} of {pages}
          </span>
          <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </div>
      )}
    </Section>
  )
}

export function PrivacyTab() {
  return (
    <div className="space-y-6">
      <PupilRequests />
      <ProfileViews />
    </div>
  )
}
