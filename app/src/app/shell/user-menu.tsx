//! The header's user menu: Settings, Manage subscription (Stripe's billing portal, created on
//! click and coming back to this page; without billing, the Support page of the user's area,
//! where plan changes are asked for) or Upgrade to Pro, Log out. For a user who cannot pay,
//! both open the plan's explanation naming the school's admins (the upgrade dialog). Log out
//! warns first when the Outbox still holds something the user captured.

import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router'

import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { useToast } from '@/components/ui/toaster'
import { useCreateBillingPortalSession } from '@/features/billing'
import { useFeatures } from '@/lib/features'
import type { SessionUser } from '@/lib/auth-client'
import { outbox } from '@/lib/outbox/outbox'
import { errorMessage } from '@/lib/rpc'
import { isPro, useSession } from '@/lib/session'
import { supportPath } from '@/lib/support-path'
import { canChangePlan } from '@/lib/upgrade'

export function initials(user: Pick<SessionUser, 'forename' | 'surname' | 'email'>): string {
  const letters = `${user.forename?.[0] ?? ''}${user.surname?.[0] ?? ''}`.toUpperCase()
  return letters || user.email[0]?.toUpperCase() || '?'
}

export function UserMenu({
  user,
  settingsPath,
  onUpgrade,
}: {
  user: SessionUser
  settingsPath: string
  onUpgrade(): void
}) {
  const navigate = useNavigate()
  const { signOut } = useSession()
  const pro = isPro(user)
  const { pathname } = useLocation()
  const { toast } = useToast()
  const portal = useCreateBillingPortalSession()
  const canPay = canChangePlan(user.role)
  const billing = useFeatures(pro && canPay).data?.billing
  const manageSubscription = () => {
    if (!canPay) {
      onUpgrade()
      return
    }
    if (!billing) {
      navigate(supportPath(pathname, user.role) ?? '/leaders/support')
      return
    }
    portal.mutate(
      { returnPath: pathname },
      {
        onSuccess: ({ url }) => window.location.assign(url),
        onError: (error) => toast({ title: 'Manage subscription', description: errorMessage(error), tone: 'error' }),
      },
    )
  }

  const [warnUnsent, setWarnUnsent] = useState(0)
  const logOut = () => void signOut().finally(() => navigate('/login', { replace: true }))

  return (
    <>
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" aria-label="User menu" className="gap-2 px-2">
          <span
            aria-hidden="true"
            className="inline-flex size-8 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
          >
            {initials(user)}
          </span>
          <span className="hidden max-w-40 truncate lg:inline">{user.name || user.email}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel className="px-3 py-2 text-xs text-muted-foreground">{user.email}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => navigate(settingsPath)}>Settings</DropdownMenuItem>
        {pro ? (
          <DropdownMenuItem disabled={portal.isPending} onSelect={manageSubscription}>
            Manage subscription
          </DropdownMenuItem>
        ) : (
          <DropdownMenuItem onSelect={onUpgrade}>Upgrade to Pro</DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          onSelect={() => {
            const unsent = outbox.unsent().length
            if (unsent > 0) setWarnUnsent(unsent)
            else logOut()
          }}
        >
          Log out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
    <Dialog open={warnUnsent > 0} onOpenChange={(open) => !open && setWarnUnsent(0)}>
      <DialogContent role="alertdialog">
        <DialogTitle className="text-lg font-semibold">{unsentTitle(warnUnsent)}</DialogTitle>
        <DialogDescription className="mt-2 text-sm text-muted-foreground">
          If you log out now, {warnUnsent === 1 ? 'it is' : 'they are'} deleted from this device and never reach Voicemark.
          Stay signed in until the Outbox has sent {warnUnsent === 1 ? 'it' : 'them'}.
        </DialogDescription>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <DialogClose asChild>
            <Button variant="outline">Stay signed in</Button>
          </DialogClose>
          <Button
            onClick={() => {
              setWarnUnsent(0)
              logOut()
            }}
          >
            Log out and delete {warnUnsent === 1 ? 'it' : 'them'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
    </>
  )
}

/** "1 thing you captured has not been sent yet" / "3 things you captured have not been sent yet". */
export function unsentTitle(count: number): string {
  return count === 1 ? '1 thing you captured has not been sent yet' : `${count} things you captured have not been sent yet`
}
