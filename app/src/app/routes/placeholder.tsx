//! A page that a later issue fills: its name, and honestly that it is coming.

import type { UserRole } from '@/lib/auth-client'
import { useSession } from '@/lib/session'

import { useRoleCheck } from '../shell/use-role-check'

export function PlaceholderPage({ title, roles }: { title: string; roles?: UserRole[] }) {
  const { session } = useSession()
  const allowed = useRoleCheck(session?.user.role)
  if (roles && !allowed) return <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
  if (roles && allowed && !allowed(roles)) {
    return (
      <div className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="text-muted-foreground">You do not have access to this page.</p>
      </div>
    )
  }
  return (
    <div className="space-y-3">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="text-muted-foreground">This page is coming soon.</p>
    </div>
  )
}
