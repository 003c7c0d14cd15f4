//! 'Upgrade to Pro': the plans, and (for now) that online upgrades are coming.

import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'

export function UpgradeDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle className="text-lg font-semibold">Upgrade to Pro</DialogTitle>
        <DialogDescription className="mt-2 text-sm text-muted-foreground">
          Pro gives unlimited tasks, priority support, team collaboration and extra users. Online
          upgrades are coming soon; until then, please contact us to upgrade.
        </DialogDescription>
        <div className="mt-6 flex justify-end">
          <DialogClose asChild>
            <Button>Close</Button>
          </DialogClose>
        </div>
      </DialogContent>
    </Dialog>
  )
}
