//! The one box that says a capability is not switched on, shown before any work starts: a plain
//! sentence for staff (`notSwitchedOn`); a superadmin also gets a link to /setup, where the
//! settings that switch it on are listed.

import { Link } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { CAPABILITY_NAMES, notSwitchedOn } from '@/lib/features'
import { useSession } from '@/lib/session'

export function FeatureOff({ capability }: { capability: keyof typeof CAPABILITY_NAMES }) {
  const { session } = useSession()
  return (
    <Alert tone="info">
      {notSwitchedOn(capability)}
      {session?.user.role === 'SUPERADMIN' && (
        <>
          {' '}
          <Link to="/setup" className="font-medium underline underline-offset-2">
            See how to switch it on
          </Link>
          .
        </>
      )}
    </Alert>
  )
}
