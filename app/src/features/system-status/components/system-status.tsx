//! Two live lines: the server's health and the wasm core's state.

import { errorMessage } from '@/lib/rpc'
import { cn } from '@/lib/utils'

import { useHealth } from '../api/get-health'
import { useCoreVersion } from '../api/use-core-version'

type Tone = 'pending' | 'good' | 'bad'

const toneClass: Record<Tone, string> = {
  pending: 'bg-muted-foreground',
  good: 'bg-success',
  bad: 'bg-destructive',
}

function StatusLine({ tone, children }: { tone: Tone; children: string }) {
  return (
    <li className="flex items-center gap-3">
      <span aria-hidden="true" className={cn('size-2.5 rounded-full', toneClass[tone])} />
      {/* role="status" so that assistive technology announces the change from "checking". */}
      <span role="status">{children}</span>
    </li>
  )
}

function errorText(error: unknown): string {
  return errorMessage(error)
}

export function SystemStatus() {
  const health = useHealth()
  const core = useCoreVersion()

  let server: [Tone, string] = ['pending', 'Server: checking…']
  if (health.isError) server = ['bad', `Server: unreachable (${errorText(health.error)})`]
  else if (health.data?.ok) server = ['good', 'Server: ok']
  else if (health.data) server = ['bad', `Server: ${health.data.reason}`]

  let coreState: [Tone, string] = ['pending', 'Core loading…']
  if (core.isError) coreState = ['bad', `Core failed to load: ${errorText(core.error)}`]
  else if (core.data) coreState = ['good', `Core ${core.data} ready`]

  return (
    <section aria-labelledby="system-status-heading" className="rounded-lg border border-border p-5">
      <h2 id="system-status-heading" className="mb-3 text-base font-semibold">
        System status
      </h2>
      <ul className="space-y-2">
        <StatusLine tone={server[0]}>{server[1]}</StatusLine>
        <StatusLine tone={coreState[0]}>{coreState[1]}</StatusLine>
      </ul>
    </section>
  )
}
