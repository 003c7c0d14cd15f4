//! /users (Manage users, superadmins): every user of every school, searched by name or
//! e-mail and filtered by school and role, 200 at a time with "Show more users", with the
//! same actions as Manage Users and an invite into a chosen school.

import { useDeferredValue, useState } from 'react'

import { ShowMore } from '@/components/show-more'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { ALL_ROLES, mainRoleLabel } from '@/lib/roles'
import { errorMessage } from '@/lib/rpc'
import { useSession } from '@/lib/session'

import { useAllUsers } from '../api/users'
import { InviteDialog } from './invite-dialog'
import { UsersTable } from './users-table'

export function AllUsersPage() {
  const { session } = useSession()
  const [search, setSearch] = useState('')
  const [schoolId, setSchoolId] = useState('')
  const [role, setRole] = useState('')
  const [inviting, setInviting] = useState(false)
  const deferredSearch = useDeferredValue(search.trim())
  const list = useAllUsers({ search: deferredSearch || null, schoolId: schoolId || null, role: role || null })
  const caller = session?.user
  if (!caller) return null
  const pages = list.data?.pages ?? []
  const users = pages.flatMap((answer) => answer.page.users)
  const first = pages[0]
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight">Manage users</h1>
        <Button onClick={() => setInviting(true)}>Invite user</Button>
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-72">
          <FormField label="Search users">
            <Input type="search" value={search} placeholder="Name or e-mail" onChange={(e) => setSearch(e.target.value)} />
          </FormField>
        </div>
        <div className="w-56">
          <FormField label="School">
            <Select value={schoolId} onChange={(e) => setSchoolId(e.target.value)}>
              <option value="">All schools</option>
              {first?.schools.map((school) => (
                <option key={school.id} value={school.id}>
                  {school.name}
                </option>
              ))}
            </Select>
          </FormField>
        </div>
        <div className="w-48">
          <FormField label="Role">
            <Select value={role} onChange={(e) => setRole(e.target.value)}>
              <option value="">All roles</option>
              {ALL_ROLES.map((r) => (
                <option key={r} value={r}>
                  {mainRoleLabel(r)}
                </option>
              ))}
            </Select>
          </FormField>
        </div>
      </div>
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      {first && (
        <>
          <UsersTable users={users} caller={caller} showSchool roleLabels="main" />
          <ShowMore
            shown={users.length}
            total={first.page.total}
            noun="users"
            more={list.hasNextPage}
            loading={list.isFetchingNextPage}
            onMore={() => void list.fetchNextPage()}
          />
        </>
      )}
      <InviteDialog
        open={inviting}
        onOpenChange={setInviting}
        callerRole={caller.role}
        schools={first?.schools ?? []}
        roleLabels="main"
      />
    </div>
  )
}
