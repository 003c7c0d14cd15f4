//! 'Upgrade to Pro': what Pro gives and how to get it today. Card payments (the payment
//! provider's pricing table) arrive with billing; until then a school is switched to Pro by
//! hand, on a message through the Support page's contact form, which this dialog opens.

import { useNavigate } from 'react-router'

import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'

export function UpgradeDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const navigate = useNavigate()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle className="text-lg font-semibold">Upgrade to Pro</DialogTitle>
        <DialogDescription className="mt-2 text-sm text-muted-foreground">
          Pro gives unlimited tasks, priority support, team collaboration and extra users. To upgrade, send us a
          message from Support with your school and the number of users, and we will switch your school to Pro.
        </DialogDescription>
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
      </DialogContent>
    </Dialog>
  )
}
