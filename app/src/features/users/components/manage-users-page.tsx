//! /leaders/users (Manage Users, admins and org admins): the school's seats, its users (100
//! at a time with "Show more users", searched by name or e-mail) with the role picker,
//! disable / enable, the leader flag, resend and revoke, an invite dialog and a CSV upload
//! that invites a whole file at once.

import { useDeferredValue, useState } from 'react'

import { Section } from '@/components/section'
import { ShowMore } from '@/components/show-more'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { SeatInfo } from '@/generated/rpc-types'
import { fieldErrors, errorMessage } from '@/lib/rpc'
import { useSession } from '@/lib/session'
import { useUpgrade } from '@/lib/upgrade'

import { useInviteFromCsv, useSeatInfo, useUserList } from '../api/users'
import { allMessages } from '../csv-errors'
import { seatState } from '../seats'
import { InviteDialog } from './invite-dialog'
import { UsersTable } from './users-table'

function SeatSummary({ seats }: { seats: SeatInfo }) {
  const upgrade = useUpgrade()
  const state = seatState(seats)
  const items: [string, string][] = [
    ['Seats', state.basic ? 'Basic plan: 1 user' : seats.seats === null ? 'No limit' : String(seats.seats)],
    ['Used', String(seats.used)],
    ['Pending', String(seats.pending)],
    ['Available', seats.available === null ? 'No limit' : String(seats.available)],
  ]
  return (
    <Section title="Seats">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {items.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-muted-foreground">{label}</dt>
            <dd className="text-2xl font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      {state.summary && (
        <Alert tone="info">
          <span className="flex flex-wrap items-center gap-3">
            <span>{state.summary}</span>
            {state.basic && (
              <Button size="sm" onClick={upgrade}>
                Upgrade to Pro
              </Button>
            )}
          </span>
        </Alert>
      )}
    </Section>
  )
}

function CsvInvite({ blockedReason }: { blockedReason: string | null }) {
  const { toast } = useToast()
  const invite = useInviteFromCsv()
  const [file, setFile] = useState<File | null>(null)
  const [problems, setProblems] = useState<string[]>([])

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (!file) return setProblems(['Choose a CSV file.'])
    if (file.size > 1024 * 1024) return setProblems(['The file is larger than 1 MB. Split it into smaller files.'])
    try {
      const { invited } = await invite.mutateAsync({ csv: await file.text(), schoolId: null })
      setProblems([])
      toast({ title: `${invited} ${invited === 1 ? 'invitation' : 'invitations'} sent.`, tone: 'success' })
    } catch (error) {
      const lines = allMessages(error, 'csv')
      setProblems(lines.length > 0 ? lines : [fieldErrors(error).csv ?? errorMessage(error)])
    }
  }

  return (
    <Section title="Invite from a CSV file">
      <p className="text-sm text-muted-foreground">
        The first line names the columns: <code className="rounded bg-muted px-1">forename,surname,email,role</code>. Role is
        optional (Standard or Staff; Standard when blank). Nobody is invited until every line is correct and everyone fits in
        your seats.
      </p>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormField label="CSV file">
          <Input
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null)
              setProblems([])
            }}
          />
        </FormField>
        {problems.length > 0 && (
          <Alert>
            <p className="font-medium">Nobody was invited:</p>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </Alert>
        )}
        <Button
          type="submit"
          disabled={invite.isPending || blockedReason !== null}
          aria-describedby={blockedReason ? 'csv-invite-blocked' : undefined}
        >
          Invite from file
        </Button>
        {blockedReason && (
          <p id="csv-invite-blocked" className="text-sm text-muted-foreground">
            {blockedReason}
          </p>
        )}
      </form>
    </Section>
  )
}

export function ManageUsersPage() {
  const { session } = useSession()
  const [search, setSearch] = useState('')
  const deferredSearch = useDeferredValue(search.trim())
  const list = useUserList(deferredSearch || null)
  const seats = useSeatInfo()
  const [inviting, setInviting] = useState(false)
  const caller = session?.user
  if (!caller) return null
  const users = list.data?.pages.flatMap((page) => page.users) ?? []
  // Until the seats are known an invitation may go (the server refuses one that does not fit).
  const blockedReason = seats.data ? seatState(seats.data).inviteBlockedReason : null
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight">Manage Users</h1>
        <div className="flex flex-col items-end gap-1">
          <Button
            onClick={() => setInviting(true)}
            disabled={blockedReason !== null}
            aria-describedby={blockedReason ? 'invite-blocked' : undefined}
          >
            Invite user
          </Button>
          {blockedReason && (
            <p id="invite-blocked" className="text-sm text-muted-foreground">
              {blockedReason}
            </p>
          )}
        </div>
      </div>
      {seats.isError && <Alert>{errorMessage(seats.error)}</Alert>}
      {seats.data && <SeatSummary seats={seats.data} />}
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      <div className="space-y-4">
        <div className="w-full max-w-xs">
          <FormField label="Search users">
            <Input type="search" value={search} placeholder="Name or e-mail" onChange={(e) => setSearch(e.target.value)} />
          </FormField>
        </div>
        {list.data && (
          <>
            <UsersTable users={users} caller={caller} />
            <ShowMore
              shown={users.length}
              total={list.data.pages[0]?.total ?? 0}
              noun="users"
              more={list.hasNextPage}
              loading={list.isFetchingNextPage}
              onMore={() => void list.fetchNextPage()}
            />
          </>
        )}
      </div>
      <CsvInvite blockedReason={blockedReason} />
      <InviteDialog open={inviting} onOpenChange={setInviting} callerRole={caller.role} />
    </div>
  )
}
