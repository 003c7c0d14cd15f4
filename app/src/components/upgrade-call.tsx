//! An upgrade call inside a page (the Collaborate panel on Basic, the weekly task limit): the
//! 'Upgrade to Pro' button for those who may pay (admins and organisation admins, spec
//! section 6); everyone else reads that their school's admins can upgrade, and who they are.

import { Button } from '@/components/ui/button'
import { useCanUpgrade, useUpgrade } from '@/lib/upgrade'

import { SchoolAdmins } from './school-admins'

export function UpgradeCall() {
  const canUpgrade = useCanUpgrade()
  const openUpgrade = useUpgrade()
  if (canUpgrade)
    return (
      <Button size="sm" onClick={openUpgrade}>
        Upgrade to Pro
      </Button>
    )
  return (
    <div className="space-y-2">
      <p className="text-sm">Your school’s admins can upgrade your school to Pro. Ask one of them:</p>
      <SchoolAdmins />
    </div>
  )
}
