//! 'Upgrade to Pro': with billing set up, Stripe's pricing table for the school (a fresh
//! customer session each time the dialog opens); without it, what Pro gives, how to get it
//! today (a message through Support) and what the server's operator must configure.

import { useEffect } from 'react'
import { useNavigate } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { PricingTable, useCreateCustomerSession } from '@/features/billing'
import { useFeatures } from '@/lib/features'
import { errorMessage } from '@/lib/rpc'

const PRO_GIVES = 'Pro gives unlimited tasks, priority support, team collaboration and extra users.'

export function UpgradeDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const features = useFeatures(open)
  const billing = features.data?.billing ?? null
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
            <div className="mt-6 flex justify-end">
              <DialogClose asChild>
                <Button variant="outline">Close</Button>
              </DialogClose>
            </div>
          </>
        ) : (
          <NoBilling onOpenChange={onOpenChange} />
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

function NoBilling({ onOpenChange }: { onOpenChange(open: boolean): void }) {
  const navigate = useNavigate()
  return (
    <>
      <DialogDescription className="mt-2 text-sm text-muted-foreground">
        {PRO_GIVES} To upgrade, send us a message from Support with your school and the number of users, and we will
        switch your school to Pro.
      </DialogDescription>
      <p className="mt-3 text-sm text-muted-foreground">
        Card payments are not set up on this server. To offer them, the operator sets VOICEMARK_STRIPE_SECRET_KEY,
        VOICEMARK_STRIPE_PUBLISHABLE_KEY, VOICEMARK_STRIPE_PRICING_TABLE_ID, VOICEMARK_STRIPE_WEBHOOK_SECRET and the
        plan products (VOICEMARK_STRIPE_PRODUCT_BASIC, _PRO, _ENTERPRISE).
      </p>
      <div className="mt-6 flex justify-end gap-3">
        <DialogClose asChild>
          <Button variant="outline">Close</Button>
        </DialogClose>
        <Button
          onClick={() => {
            onOpenChange(false)
            navigate('/leaders/support')
          }}
        >
          Contact support
        </Button>
      </div>
    </>
  )
}
