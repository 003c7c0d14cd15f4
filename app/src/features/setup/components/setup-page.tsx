//! /setup (superadmins): what this server is set up for. Each capability (AI writing, photo
//! reading, dictation, billing, Microsoft 365, MIS sync, e-mail, file storage) with whether it
//! is on, what it gives staff, the settings that switch it on (set or not; values are never
//! sent) and the guide in the repository's docs. Staff only ever read "not switched on";
//! this page is where the operator learns what to do about it.

import { CheckCircle2, CircleOff, FileText } from 'lucide-react'

import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { errorMessage, useRpcQuery } from '@/lib/rpc'
import type { RpcOutput } from '@/lib/rpc'

type Capability = RpcOutput<'system.setup'>['capabilities'][number]

export function SetupPage() {
  const setup = useRpcQuery('system.setup', undefined, { retry: false })
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Setup</h1>
        <p className="max-w-3xl text-muted-foreground">
          What this server is set up for. Settings are environment variables of the voicemark process; change them and
          restart it. Staff see only that a capability is not switched on, never these names.
        </p>
      </div>
      {setup.isPending && <p role="status">Loading…</p>}
      {setup.isError && <Alert>{errorMessage(setup.error)}</Alert>}
      {setup.data && (
        <nav aria-label="On this page" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {setup.data.capabilities.map((capability) => (
            <a key={capability.key} href={`#setup-${capability.key}`} className="text-primary underline-offset-2 hover:underline">
              {capability.name}
              <span className="sr-only">{capability.on ? ' (on)' : ' (off)'}</span>
            </a>
          ))}
        </nav>
      )}
      {setup.data && (
        <ul aria-label="Capabilities" className="grid gap-4 lg:grid-cols-2">
          {setup.data.capabilities.map((capability) => (
            <CapabilityCard key={capability.key} capability={capability} />
          ))}
        </ul>
      )}
    </div>
  )
}

function CapabilityCard({ capability }: { capability: Capability }) {
  const headingId = `setup-${capability.key}`
  return (
    <li className="space-y-3 rounded-lg border border-border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="flex scroll-mt-20 items-center gap-2 text-lg font-semibold">
          {capability.on ? (
            <CheckCircle2 aria-hidden="true" className="size-5 text-success" />
          ) : (
            <CircleOff aria-hidden="true" className="size-5 text-muted-foreground" />
          )}
          {capability.name}
        </h2>
        <Badge variant={capability.on ? 'success' : 'secondary'}>{capability.on ? 'On' : 'Off'}</Badge>
      </div>
      <p className="text-sm text-muted-foreground">{capability.purpose}</p>
      <p className="text-sm">{capability.status}</p>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Settings for {capability.name}</caption>
        <thead>
          <tr className="border-b border-border text-muted-foreground">
            <th scope="col" className="py-1 pr-2 font-medium">
              Setting
            </th>
            <th scope="col" className="py-1 font-medium">
              State
            </th>
          </tr>
        </thead>
        <tbody>
          {capability.settings.map((setting) => (
            <tr key={setting.name} className="border-b border-border last:border-0">
              <td className="py-1 pr-2 font-mono text-xs break-all">
                {setting.name}
                {setting.required && <span className="ml-1 font-sans text-muted-foreground">(needed)</span>}
              </td>
              <td className="py-1">{setting.set ? 'Set' : 'Not set'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
        <FileText aria-hidden="true" className="size-4" />
        Guide: <code className="font-mono text-xs">{capability.docs}</code> in the Voicemark repository
      </p>
    </li>
  )
}
