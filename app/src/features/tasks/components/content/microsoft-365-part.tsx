//! The content step's 'Microsoft 365' part. Not set up on the server: says what is missing
//! (`microsoft.status`). Not connected: 'Connect Microsoft account', a native form POST to
//! `/api/microsoft/connect` with the CSRF token and this page as `returnTo`; the browser goes to Microsoft and comes back with `?microsoft=<outcome>`,
//! which is said here and then dropped from the address. Connected: 'Import from Microsoft
//! 365' (the dialog) and 'Disconnect Microsoft account'.

import { useEffect, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'

import { FeatureOff } from '@/components/feature-off'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toaster'
import { csrfToken } from '@/lib/auth-client'
import { failureToast } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'

import { useDisconnectMicrosoft } from '../../api/content/disconnect-microsoft'
import { useMicrosoftStatus } from '../../api/content/microsoft-status'
import { CONNECT_MICROSOFT, MICROSOFT_OUTCOMES, microsoftOutcome, withoutOutcome, type MicrosoftOutcome } from './microsoft-365'
import { MicrosoftImportDialog } from './microsoft-import-dialog'

/**
 * 'Connect Microsoft account'. The content step sits inside the task's own form, and forms
 * cannot nest, so the POST is a form made when the button is pressed (the CSRF token
 * fetched then, so it is never stale) and submitted natively: the browser follows the
 * redirects to Microsoft and back here.
 */
function ConnectButton({ returnTo, label }: { returnTo: string; label: string }) {
  const [sending, setSending] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  const connect = async () => {
    setSending(true)
    setProblem(null)
    try {
      const token = await csrfToken()
      const form = document.createElement('form')
      form.method = 'post'
      form.action = '/api/microsoft/connect'
      form.hidden = true
      for (const [name, value] of [
        ['csrfToken', token],
        ['returnTo', returnTo],
      ]) {
        const input = document.createElement('input')
        input.type = 'hidden'
        input.name = name
        input.value = value
        form.append(input)
      }
      document.body.append(form)
      form.submit()
    } catch {
      setSending(false)
      setProblem(MICROSOFT_OUTCOMES.unavailable)
    }
  }

  return (
    <div className="space-y-2">
      <Button type="button" variant="outline" disabled={sending} onClick={() => void connect()}>
        {label}
      </Button>
      {problem && <Alert>{problem}</Alert>}
    </div>
  )
}

export function Microsoft365Part({ taskId }: { taskId: string }) {
  const { toast } = useToast()
  const location = useLocation()
  const navigate = useNavigate()
  const status = useMicrosoftStatus()
  const disconnect = useDisconnectMicrosoft()
  const [outcome, setOutcome] = useState<MicrosoftOutcome | undefined>()
  const [importOpen, setImportOpen] = useState(false)
  const returnTo = withoutOutcome(location.pathname, location.search)

  // Back from Microsoft: keep what happened to say it, and tidy the address so a reload
  // does not say it again.
  const given = new URLSearchParams(location.search).get('microsoft')
  useEffect(() => {
    if (given === null) return
    setOutcome(microsoftOutcome(given))
    void navigate(returnTo, { replace: true })
  }, [given, navigate, returnTo])

  const onDisconnect = () =>
    disconnect.mutate(undefined, {
      onSuccess: () => {
        setOutcome(undefined)
        toast({ title: 'Microsoft account disconnected', tone: 'success' })
      },
      onError: (error) => toast(failureToast(error)),
    })

  const state = status.data
  return (
    <section aria-labelledby="microsoft-365-heading" className="space-y-2" data-tour="content-microsoft">
      <h3 id="microsoft-365-heading" className="font-medium">
        Microsoft 365
      </h3>
      {outcome && <Alert tone={outcome === 'connected' ? 'success' : 'error'}>{MICROSOFT_OUTCOMES[outcome]}</Alert>}
      {status.isPending && <p className="text-sm">Loading…</p>}
      {status.isError && <Alert>{errorMessage(status.error)}</Alert>}
      {state && !state.configured && <FeatureOff capability="microsoft" />}
      {state?.configured && !state.connected && (
        <>
          <p className="text-sm text-muted-foreground">
            Connect your Microsoft account to bring in files from OneDrive and SharePoint and recordings of your Teams
            meetings.
          </p>
          <ConnectButton returnTo={returnTo} label={CONNECT_MICROSOFT} />
        </>
      )}
      {state?.configured && state.connected && (
        <>
          <p className="text-sm text-muted-foreground">
            Your Microsoft account is connected: import files from OneDrive and SharePoint and recordings of your Teams
            meetings.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button type="button" variant="outline" onClick={() => setImportOpen(true)}>
              Import from Microsoft 365
            </Button>
            <Button type="button" variant="ghost" disabled={disconnect.isPending} onClick={onDisconnect}>
              Disconnect Microsoft account
            </Button>
          </div>
          <MicrosoftImportDialog taskId={taskId} open={importOpen} onOpenChange={setImportOpen} />
        </>
      )}
    </section>
  )
}
