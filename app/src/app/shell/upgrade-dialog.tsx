//! 'Upgrade to Pro' (and, for a Pro user who cannot pay, 'Manage subscription'): for an
//! admin or organisation admin with billing set up, Stripe's pricing table for the school (a
//! fresh customer session each time the dialog opens); without billing, what Pro gives and
//! how to get it today (a message through Support). Anyone else reads what their plan is and
//! who can change it: the school's admins, each with a link to ask them (never a refusal).

import { useEffect } from 'react'
import { useLocation, useNavigate } from 'react-router'

import { mailto, SchoolAdmins } from '@/components/school-admins'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { PricingTable, useCreateCustomerSession } from '@/features/billing'
import type { UserRole } from '@/lib/auth-client'
import { useFeatures } from '@/lib/features'
import { errorMessage, useRpcQuery } from '@/lib/rpc'
import { supportPath } from '@/lib/support-path'

const PRO_GIVES = 'Pro gives unlimited tasks, priority support, team collaboration and extra users.'

export function UpgradeDialog({
  open,
  onOpenChange,
  canPay,
  pro,
  role,
}: {
  open: boolean
  onOpenChange(open: boolean): void
  /** Whether the user may buy or change the school's plan (admins and organisation admins). */
  canPay: boolean
  pro: boolean
  role: UserRole
}) {
  const features = useFeatures(open && canPay)
  const billing = features.data?.billing ?? null
  if (!canPay)
    return (
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="max-h-[90dvh] overflow-y-auto">{open && <PlanExplanation pro={pro} />}</DialogContent>
      </Dialog>
    )
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className={billing ? 'max-h-[90dvh] max-w-3xl overflow-y-auto' : undefined}>
        <DialogTitle className="text-lg font-semibold">Upgrade to Pro</DialogTitle>
        {features.isPending ? (
          <DialogDescription className="mt-2 text-sm text-muted-foreground">Loading plans…</DialogDescription>
        ) : billing ? (
          <>
            <DialogDescription className="mt-2 text-sm text-muted-foreground">
              {PRO_GIVES} Choose the number of users and pay by card.
            </DialogDescription>
            <div className="mt-4">{open && <SchoolPricingTable billing={billing} />}</div>
            <CloseFooter />
          </>
        ) : (
          <NoBilling onOpenChange={onOpenChange} role={role} />
        )}
      </DialogContent>
    </Dialog>
  )
}

function SchoolPricingTable({
  billing,
}: {
  billing: { publishableKey: string; pricingTableId: string; pricingTableScriptUrl: string }
}) {
  const session = useCreateCustomerSession()
  const { mutate } = session
  useEffect(() => mutate(undefined), [mutate])
  if (session.isError) return <Alert>{errorMessage(session.error)}</Alert>
  if (!session.data) return <p className="text-sm text-muted-foreground">Loading plans…</p>
  return (
    <PricingTable
      scriptUrl={billing.pricingTableScriptUrl}
      pricingTableId={billing.pricingTableId}
      publishableKey={billing.publishableKey}
      clientSecret={session.data.clientSecret}
      clientReferenceId={session.data.clientReferenceId}
    />
  )
}

/** The dialog's closing row: one Close button, on the right. */
function CloseFooter() {
  return (
    <div className="mt-6 flex justify-end">
      <DialogClose asChild>
        <Button variant="outline">Close</Button>
      </DialogClose>
    </div>
  )
}

/** For a user who cannot pay: their plan, and the school's admins who can change it. */
function PlanExplanation({ pro }: { pro: boolean }) {
  return (
    <>
      <DialogTitle className="text-lg font-semibold">{pro ? 'Your school’s plan' : 'Upgrade to Pro'}</DialogTitle>
      <DialogDescription className="mt-2 text-sm text-muted-foreground">
        {pro
          ? 'Your school is on Pro: unlimited tasks, priority support, team collaboration and extra users. Your school’s admins manage the subscription.'
          : `Your school is on the Basic plan. ${PRO_GIVES} Your school’s admins can upgrade your school to Pro.`}
      </DialogDescription>
      <div className="mt-4 space-y-2">
        <p className="text-sm font-medium">{pro ? 'Ask one of them about the subscription:' : 'Ask one of them to upgrade:'}</p>
        <SchoolAdmins />
      </div>
      <CloseFooter />
    </>
  )
}

function NoBilling({ onOpenChange, role }: { onOpenChange(open: boolean): void; role: UserRole }) {
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const support = useRpcQuery('system.support', undefined, { staleTime: Infinity, retry: false }).data?.email
  const page = supportPath(pathname, role)
  return (
    <>
      <DialogDescription className="mt-2 text-sm text-muted-foreground">
        {PRO_GIVES} Card payments are not switched on yet, so to upgrade, send us a message with your school and the
        number of users, and we will switch your school to Pro.
      </DialogDescription>
      <div className="mt-6 flex justify-end gap-3">
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
        {page ? (
          <Button
            onClick={() => {
              onOpenChange(false)
              navigate(page)
            }}
          >
            Contact support
          </Button>
        ) : (
          support && (
            <Button asChild>
              <a href={mailto(support, 'Upgrading our school to Voicemark Pro')}>Contact support</a>
            </Button>
          )
        )}
      </div>
    </>
  )
}
