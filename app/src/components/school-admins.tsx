//! Who can change the school's plan (`school.admins`): each admin by name with a link that
//! opens an e-mail to them, so a teacher who wants Pro can ask in one click.

import { Mail } from 'lucide-react'

import { useRpcQuery, errorMessage } from '@/lib/rpc'

const SUBJECT = 'Voicemark Pro for our school'

export function mailto(email: string, subject = SUBJECT): string {
  return `mailto:${email}?subject=${encodeURIComponent(subject)}`
}

/** The school's admins, each with an 'Ask' link (an e-mail); the support address when there are none. */
export function SchoolAdmins() {
  const admins = useRpcQuery('school.admins', undefined, { staleTime: 5 * 60_000, retry: false })
  const support = useRpcQuery('system.support', undefined, { staleTime: Infinity, retry: false }).data?.email
  if (admins.isPending) return <p className="text-sm text-muted-foreground">Loading your school’s admins…</p>
  if (admins.isError) return <p className="text-sm text-muted-foreground">{errorMessage(admins.error)}</p>
  if (admins.data.length === 0)
    return (
      <p className="text-sm text-muted-foreground">
        Your school has no admin in Voicemark yet.{' '}
        {support && (
          <>
            Write to us at{' '}
            <a className="font-medium underline underline-offset-2" href={mailto(support)}>
              {support}
            </a>{' '}
            and we will help.
          </>
        )}
      </p>
    )
  return (
    <ul aria-label="Your school's admins" className="space-y-2">
      {admins.data.map((admin) => (
        <li key={admin.email} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border px-3 py-2">
          <span className="min-w-0">
            <span className="block font-medium">{admin.name || admin.email}</span>
            <span className="block truncate text-sm text-muted-foreground">{admin.email}</span>
          </span>
          <a
            href={mailto(admin.email)}
            className="inline-flex items-center gap-1.5 text-sm font-medium text-primary underline-offset-2 hover:underline"
          >
            <Mail aria-hidden="true" className="size-4" />
            Ask {admin.name.split(' ')[0] || 'them'}
          </a>
        </li>
      ))}
    </ul>
  )
}
