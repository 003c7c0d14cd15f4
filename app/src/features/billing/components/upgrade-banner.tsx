//! 'Unlock more features' (spec sections 2 and 4): for admins and org admins in the leaders'
//! area without Pro, unless 'Remind me next week' set the `hideUpgradeNotice` cookie.

import { useState } from 'react'

import { Button } from '@/components/ui/button'

import { hasHideUpgradeNotice, hideUpgradeNoticeCookie } from '../upgrade-notice-cookie'

export function UpgradeBanner({ onUpgrade }: { onUpgrade(): void }) {
  const [hidden, setHidden] = useState(() => hasHideUpgradeNotice(document.cookie))
  if (hidden) return null
  return (
    <section
      aria-labelledby="upgrade-banner-title"
      className="mb-6 flex flex-col gap-3 rounded-lg border border-border bg-muted px-4 py-3 sm:flex-row sm:items-center"
    >
      <div className="flex-1">
        <h2 id="upgrade-banner-title" className="font-semibold">
          Unlock more features
        </h2>
        <p className="text-sm text-muted-foreground">
          Pro gives unlimited tasks, priority support, team collaboration and extra users.
        </p>
      </div>
      <div className="flex gap-2">
        <Button size="sm" onClick={onUpgrade}>
          Upgrade to Pro
        </Button>
        <Button
          size="sm"
          variant="outline"
          onClick={() => {
            document.cookie = hideUpgradeNoticeCookie(window.location.protocol === 'https:')
            setHidden(true)
          }}
        >
          Remind me next week
        </Button>
      </div>
    </section>
  )
}
