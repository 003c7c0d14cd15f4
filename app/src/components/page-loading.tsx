//! The whole-page waiting state (the first page's code, the session, the shell's code): the
//! first frame while it is shown (lib/first-frame.ts), else "Loading…".

import { firstFrameShown } from '@/lib/use-first-frame'

export function PageLoading() {
  if (firstFrameShown()) return null
  return (
    <div role="status" className="flex h-dvh items-center justify-center text-muted-foreground">
      Loading…
    </div>
  )
}
