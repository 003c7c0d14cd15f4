//! The users table shared by Manage Users (/leaders/users) and the superadmin's /users:
//! name, e-mail, role (the role picker), status, last active, leader, and the actions
//! (disable / enable, resend and revoke an invitation).

import { Cell, DataTable } from '@/components/data-table'
import { DateText } from '@/components/date-text'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { ManagedUser } from '@/generated/rpc-types'
import type { UserRole } from '@/lib/auth-client'
import { failureToast } from '@/lib/form-errors'
import { assignableRoles, ROLE_RANK, roleLabeller, type RoleLabelArea } from '@/lib/roles'
import { userStatusLabel, userStatusTone } from '@/lib/user-status'

import { useResendInvite, useRevokeInvite, useSetDisabled, useSetLeader, useSetRole } from '../api/users'

function RolePicker({
  user,
  caller,
  roleLabel,
}: {
  user: ManagedUser
  caller: { id: string; role: UserRole }
  roleLabel(role: string): string
}) {
  const { toast } = useToast()
  const setRole = useSetRole()
  const name = `${user.forename} ${user.surname}`
  const offered = assignableRoles(caller.role)
  const locked =
    user.id === caller.id || ROLE_RANK[user.role as UserRole] > ROLE_RANK[caller.role] || !offered.includes(user.role as UserRole)
  if (locked) return <span>{roleLabel(user.role)}</span>
  return (
    <Select
      aria-label={`Role of ${name}`}
      value={user.role}
      disabled={setRole.isPending}
      className="h-8 w-36"
      onChange={async (event) => {
        const role = event.target.value
        try {
          await setRole.mutateAsync({ id: user.id, role })
          toast({ title: `${name} is now ${roleLabel(role)}.`, tone: 'success' })
        } catch (error) {
          toast(failureToast(error))
        }
      }}
    >
      {offered.map((role) => (
        <option key={role} value={role}>
          {roleLabel(role)}
        </option>
      ))}
    </Select>
  )
}

function Actions({ user, caller }: { user: ManagedUser; caller: { id: string; role: UserRole } }) {
  const { toast } = useToast()
  const setDisabled = useSetDisabled()
  const setLeader = useSetLeader()
  const resend = useResendInvite()
  const revoke = useRevokeInvite()
  const name = `${user.forename} ${user.surname}`
  const above = ROLE_RANK[user.role as UserRole] > ROLE_RANK[caller.role]
  if (above) return null
  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action()
      toast({ title: done, tone: 'success' })
    } catch (error) {
      toast(failureToast(error))
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label className="flex items-center gap-1 text-sm whitespace-nowrap">
        <input
          type="checkbox"
          className="size-4 accent-primary"
          checked={user.leader}
          disabled={setLeader.isPending}
          aria-label={`Leader: ${name}`}
          onChange={(event) =>
            run(
              () => setLeader.mutateAsync({ id: user.id, leader: event.target.checked }),
              event.target.checked ? `${name} is now a leader.` : `${name} is no longer a leader.`,
            )
          }
        />
        Leader
      </label>
      {user.status === 'pending' && (
        <>
          <Button size="sm" variant="outline" aria-label={`Resend invitation to ${name}`} disabled={resend.isPending}
            onClick={() => run(() => resend.mutateAsync({ id: user.id }), `Invitation sent again to ${user.email}.`)}>
            Resend invite
          </Button>
          <Button size="sm" variant="outline" aria-label={`Revoke invitation of ${name}`} disabled={revoke.isPending}
            onClick={() => run(() => revoke.mutateAsync({ id: user.id }), `Invitation of ${name} revoked.`)}>
            Revoke
          </Button>
        </>
      )}
      {user.id !== caller.id && user.status !== 'pending' && (
        <Button
          size="sm"
          variant="outline"
          aria-label={`${user.status === 'inactive' ? 'Enable' : 'Disable'} ${name}`}
          disabled={setDisabled.isPending}
          onClick={() =>
            run(
              () => setDisabled.mutateAsync({ id: user.id, disabled: user.status !== 'inactive' }),
              user.status === 'inactive' ? `${name} is enabled.` : `${name} is disabled and signed out.`,
            )
          }
        >
          {user.status === 'inactive' ? 'Enable' : 'Disable'}
        </Button>
      )}
    </div>
  )
}

export function UsersTable({
  users,
  caller,
  showSchool = false,
  roleLabels = 'leaders',
}: {
  users: ManagedUser[]
  caller: { id: string; role: UserRole }
  showSchool?: boolean
  /** Whose role labels: the main area's (/users) or the leaders' (Manage Users). */
  roleLabels?: RoleLabelArea
}) {
  const roleLabel = roleLabeller(roleLabels)
  const headers = ['Name', 'E-mail', ...(showSchool ? ['School'] : []), 'Role', 'Status', 'Last active', 'Actions']
  return (
    <DataTable caption="Users" headers={headers}>
      {users.length === 0 && (
        <tr>
          <td colSpan={headers.length} className="px-3 py-2">
            No users found.
          </td>
        </tr>
      )}
      {users.map((user) => (
        <tr key={user.id}>
          <Cell>
            {user.forename} {user.surname}
          </Cell>
          <Cell>{user.email}</Cell>
          {showSchool && <Cell>{user.schoolName ?? '—'}</Cell>}
          <Cell>
            <RolePicker user={user} caller={caller} roleLabel={roleLabel} />
          </Cell>
          <Cell>
            <Badge variant={userStatusTone(user.status)}>{userStatusLabel(user.status)}</Badge>
          </Cell>
          <Cell>
            <DateText date={user.lastActive} empty="Never" />
          </Cell>
          <Cell>
            <Actions user={user} caller={caller} />
          </Cell>
        </tr>
      ))}
    </DataTable>
  )
}
