//! "A new version of Voicemark is ready", with Reload: shown when the service worker holds a
//! new version; nothing changes until the user chooses Reload (lib/pwa.ts).

import { Button } from '@/components/ui/button'
import { useUpdateReady } from '@/lib/pwa'

export function UpdatePrompt() {
  const reload = useUpdateReady()
  if (!reload) return null
  return (
    <div
      role="status"
      className="fixed inset-x-2 bottom-2 z-50 flex flex-wrap items-center justify-between gap-3 rounded-lg border border-border bg-background p-3 text-sm shadow-lg sm:inset-x-auto sm:right-4 sm:bottom-4 sm:max-w-md"
    >
      <span>A new version of Voicemark is ready</span>
      <Button size="sm" onClick={reload}>
        Reload
      </Button>
    </div>
  )
}
