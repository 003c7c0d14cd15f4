//! Manage School › MIS sync: choose the MIS provider, Wonde (school id and token) or
//! Groupcall Xporter (Groupcall id and secret); the token or secret is never shown again,
//! only that one is saved; a school has one source, 'Sync now', the running sync's progress, the last full and
//! delta sync times, the last run's counts, and the data problems to fix in the MIS.

import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useState, type ComponentProps, type ReactNode } from 'react'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { Section } from '@/components/section'
import { formatDate } from '@/lib/format-date'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'
import { usePupilWord } from '@/lib/pupil-word'

import {
  groupcallSchema,
  useMisSync,
  useSaveGroupcall,
  useSaveWonde,
  useSyncNow,
  wondeSchema,
  type GroupcallValues,
  type WondeValues,
} from '../api/mis-sync'

const when = (date: Date | null | undefined) => (date ? formatDate(date, true) : 'Never')

type Source = 'WONDE' | 'GROUPCALL'

const SOURCE_LABEL: Record<Source, string> = { WONDE: 'Wonde', GROUPCALL: 'Groupcall Xporter' }

type MisSyncData = NonNullable<ReturnType<typeof useMisSync>['data']>

interface ConnectionProps {
  data: MisSyncData
  /** Connected to this source (its token or secret is saved). */
  connected: boolean
  onSaved: () => void
  syncButton: ReactNode
  replaces: ReactNode
}

/**
 * One source's connection: what it brings, the form with its two fields (the secret one
 * kept empty once saved), the submit and Sync now buttons, and that a secret is saved.
 */
function ConnectionForm({
  source,
  connected,
  replaces,
  syncButton,
  onSubmit,
  submitting,
  fields,
  savedText,
}: {
  source: Source
  connected: boolean
  replaces: ReactNode
  syncButton: ReactNode
  onSubmit: ComponentProps<'form'>['onSubmit']
  submitting: boolean
  fields: ReactNode
  savedText: string
}) {
  const name = SOURCE_LABEL[source]
  return (
    <Section title={`${name} connection`}>
      <p className="text-sm text-muted-foreground">
        Pupils, parents, classes, year and form groups and staff come from your MIS through {name} and are kept up to date
        every hour, with a full sync every night.
      </p>
      {replaces}
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">{fields}</div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={submitting}>
            {connected ? 'Save connection' : `Connect ${name}`}
          </Button>
          {syncButton}
        </div>
      </form>
      {connected && <p className="text-sm">{savedText}</p>}
    </Section>
  )
}

function WondeConnection({ data, connected, onSaved, syncButton, replaces }: ConnectionProps) {
  const { toast } = useToast()
  const save = useSaveWonde()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<WondeValues>({ resolver: zodResolver(wondeSchema), defaultValues: { wondeId: '', token: '' } })
  useEffect(() => {
    reset({ wondeId: data.wondeId ?? '', token: '' })
  }, [data.wondeId, data.tokenSaved, reset])

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({ wondeId: values.wondeId, token: values.token || null })
      toast({
        title: `Connected to Wonde${saved.schoolName ? ` (${saved.schoolName})` : ''}. The first sync has started.`,
        tone: 'success',
      })
      onSaved()
    } catch (error) {
      if (!setServerErrors(error, setError, ['wondeId', 'token'])) toast(failureToast(error))
    }
  })

  return (
    <ConnectionForm
      source="WONDE"
      connected={connected}
      replaces={replaces}
      syncButton={syncButton}
      onSubmit={onSubmit}
      submitting={isSubmitting}
      savedText="Token saved."
      fields={
        <>
          <FormField label="Wonde school id" error={errors.wondeId?.message}>
            <Input autoComplete="off" {...register('wondeId')} />
          </FormField>
          <FormField
            label="Wonde access token"
            error={errors.token?.message}
            hint={connected ? 'A token is saved. Leave this empty to keep it.' : undefined}
          >
            <Input type="password" autoComplete="off" {...register('token')} />
          </FormField>
        </>
      }
    />
  )
}

function GroupcallConnection({ data, connected, onSaved, syncButton, replaces }: ConnectionProps) {
  const { toast } = useToast()
  const save = useSaveGroupcall()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<GroupcallValues>({ resolver: zodResolver(groupcallSchema), defaultValues: { groupcallId: '', secret: '' } })
  useEffect(() => {
    reset({ groupcallId: data.groupcallId ?? '', secret: '' })
  }, [data.groupcallId, data.tokenSaved, reset])

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ groupcallId: values.groupcallId, secret: values.secret || null })
      toast({ title: 'Connected to Groupcall Xporter. The first sync has started.', tone: 'success' })
      onSaved()
    } catch (error) {
      if (!setServerErrors(error, setError, ['groupcallId', 'secret'])) toast(failureToast(error))
    }
  })

  return (
    <ConnectionForm
      source="GROUPCALL"
      connected={connected}
      replaces={replaces}
      syncButton={syncButton}
      onSubmit={onSubmit}
      submitting={isSubmitting}
      savedText="Secret saved."
      fields={
        <>
          <FormField label="Groupcall id" error={errors.groupcallId?.message}>
            <Input autoComplete="off" {...register('groupcallId')} />
          </FormField>
          <FormField
            label="Groupcall secret"
            error={errors.secret?.message}
            hint={connected ? 'A secret is saved. Leave this empty to keep it.' : undefined}
          >
            <Input type="password" autoComplete="off" {...register('secret')} />
          </FormField>
        </>
      }
    />
  )
}

export function MisSyncTab() {
  // Poll while a sync runs, and for a while after asking for one (until its job starts).
  const [waitingUntil, setWaitingUntil] = useState(0)
  const [now, setNow] = useState(() => Date.now())
  const [polling, setPolling] = useState(false)
  const status = useMisSync(polling)
  const running = status.data?.running ?? null
  useEffect(() => {
    setPolling(running !== null || now < waitingUntil)
  }, [running, now, waitingUntil])
  useEffect(() => {
    if (waitingUntil <= now) return
    const timer = setTimeout(() => setNow(Date.now()), 1000)
    return () => clearTimeout(timer)
  }, [now, waitingUntil])
  const expectSync = () => {
    setWaitingUntil(Date.now() + 30_000)
    setNow(Date.now())
  }

  const { toast } = useToast()
  const syncNow = useSyncNow()
  const [choice, setChoice] = useState<Source | null>(null)
  const word = usePupilWord()

  const onSyncNow = async () => {
    try {
      await syncNow.mutateAsync({ delta: null })
      toast({ title: 'Sync started.', tone: 'success' })
      expectSync()
    } catch (error) {
      toast(failureToast(error))
    }
  }

  if (status.isError) return <Alert>{errorMessage(status.error)}</Alert>
  if (!status.data) return <p role="status">Loading the MIS sync…</p>
  const data = status.data
  const connectedTo: Source | null = data.tokenSaved && (data.source === 'WONDE' || data.source === 'GROUPCALL') ? data.source : null
  const source: Source = choice ?? connectedTo ?? 'WONDE'
  const connected = connectedTo === source
  const last = data.lastRun
  const syncButton = connected && (
    <Button type="button" variant="outline" onClick={onSyncNow} disabled={syncNow.isPending || running !== null}>
      Sync now
    </Button>
  )
  const replaces =
    connectedTo !== null && connectedTo !== source ? (
      <p className="text-sm">
        A school has one MIS source: connecting {SOURCE_LABEL[source]} replaces the {SOURCE_LABEL[connectedTo]} connection.
      </p>
    ) : null

  return (
    <div className="space-y-6">
      <fieldset className="space-y-2">
        <legend className="font-medium">MIS provider</legend>
        <div className="flex flex-wrap gap-4">
          {(['WONDE', 'GROUPCALL'] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="mis-source"
                value={value}
                checked={source === value}
                onChange={() => setChoice(value)}
                className="size-4 accent-primary"
              />
              {SOURCE_LABEL[value]}
            </label>
          ))}
        </div>
      </fieldset>
      {source === 'WONDE' ? (
        <WondeConnection data={data} connected={connected} onSaved={expectSync} syncButton={syncButton} replaces={replaces} />
      ) : (
        <GroupcallConnection data={data} connected={connected} onSaved={expectSync} syncButton={syncButton} replaces={replaces} />
      )}

      <Section title="Sync status">
        {running && (
          <div role="status" aria-live="polite" className="rounded-md border border-border p-3">
            <p className="font-medium">{running.kind === 'FULL' ? 'Full sync' : 'Delta sync'} in progress</p>
            <p className="text-sm text-muted-foreground">{running.progress}</p>
          </div>
        )}
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium">Last full sync</dt>
          <dd>{when(data.lastFullSync)}</dd>
          <dt className="font-medium">Last delta sync</dt>
          <dd>{when(data.lastDeltaSync)}</dd>
        </dl>
        {last && (
          <div className="space-y-2">
            <h3 className="font-medium">
              Last sync ({last.kind === 'FULL' ? 'full' : 'delta'}, {formatDate(last.startedAt, true)}):{' '}
              {last.status === 'DONE' ? 'finished' : 'failed'}
            </h3>
            {last.error ? (
              <Alert>{last.error}</Alert>
            ) : (
              <ul aria-label="Last sync counts" className="flex flex-wrap gap-4 text-sm">
                <li>{last.added} added</li>
                <li>{last.updated} updated</li>
                <li>{last.archived} archived</li>
              </ul>
            )}
            {last.problems.length > 0 && (
              <details className="text-sm">
                <summary>{last.problems.length} records could not be taken</summary>
                <ul className="list-disc pl-5">
                  {last.problems.map((problem) => (
                    <li key={problem}>{problem}</li>
                  ))}
                </ul>
              </details>
            )}
          </div>
        )}
        {!last && !running && <p className="text-sm text-muted-foreground">No sync has run yet.</p>}
      </Section>

      <Section title="Data problems to fix in your MIS">
        {data.noParentCount === 0 &&
        data.noFormCount === 0 &&
        data.duplicateEmails.length === 0 &&
        data.refusedAddresses.length === 0 ? (
          <p className="text-sm">No problems found.</p>
        ) : (
          <div className="space-y-4 text-sm">
            {data.noParentCount > 0 && (
              <div>
                <h3 className="font-medium">{word.Many} with no reachable parent ({data.noParentCount})</h3>
                <p className="text-muted-foreground">No contact with parental responsibility has an e-mail address.</p>
                <ul aria-label={`${word.Many} with no reachable parent`} className="list-disc pl-5">
                  {data.noParent.map((pupil) => (
                    <li key={pupil.id}>{pupil.name}</li>
                  ))}
                </ul>
              </div>
            )}
            {data.refusedAddresses.length > 0 && (
              <div>
                <h3 className="font-medium">Refused e-mail addresses ({data.refusedAddresses.length})</h3>
                <p className="text-muted-foreground">
                  A mail server refused these addresses, so nothing more is sent to them until the address is changed or saved
                  again.
                </p>
                <ul aria-label="Refused e-mail addresses" className="list-disc pl-5">
                  {data.refusedAddresses.map((r) => (
                    <li key={`${r.studentId}-${r.audience}`}>
                      {r.name}: {r.sentence}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {data.duplicateEmails.length > 0 && (
              <div>
                <h3 className="font-medium">Duplicate e-mail addresses ({data.duplicateEmails.length})</h3>
                <ul aria-label="Duplicate e-mail addresses" className="list-disc pl-5">
                  {data.duplicateEmails.map((dup) => (
                    <li key={dup.email}>
                      {dup.email}: {dup.pupils} {word.many}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {data.noFormCount > 0 && (
              <div>
                <h3 className="font-medium">{word.Many} without a form group ({data.noFormCount})</h3>
                <ul aria-label={`${word.Many} without a form group`} className="list-disc pl-5">
                  {data.noForm.map((pupil) => (
                    <li key={pupil.id}>{pupil.name}</li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        )}
      </Section>
    </div>
  )
}
