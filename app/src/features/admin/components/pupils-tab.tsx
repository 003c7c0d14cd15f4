//! Manage School › Pupils: search, add and edit pupils, and import them from a CSV file.

import { zodResolver } from '@hookform/resolvers/zod'
import { useState } from 'react'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { Pupil } from '@/generated/rpc-types'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'
import { CursorPager, useCursorPages } from '@/components/cursor-pager'
import { Cell, DataTable } from '@/components/data-table'
import { Section } from '@/components/section'
import { LanguageSelect } from '@/components/language-select'
import { usePupilWord } from '@/lib/pupil-word'

import { allFieldMessages, useImportPupils } from '../api/import-pupils'
import { useClasses, useFormGroups, useYearGroups } from '../api/list-groups'
import { usePupils } from '../api/list-pupils'
import { useRefusedAddresses } from '../api/refused-addresses'
import { pupilSchema, useSavePupil, type PupilValues } from '../api/save-pupil'

const FIELDS = ['forename', 'surname', 'email', 'parentEmail', 'parentLanguage', 'upn', 'yearGroupId', 'formGroupId', 'classIds'] as const

function toValues(pupil?: Pupil): PupilValues {
  return {
    forename: pupil?.forename ?? '',
    surname: pupil?.surname ?? '',
    email: pupil?.email ?? '',
    parentEmail: pupil?.parentEmail ?? '',
    parentLanguage: pupil?.parentLanguage ?? 'en',
    upn: pupil?.upn ?? '',
    yearGroupId: pupil?.yearGroupId ?? '',
    formGroupId: pupil?.formGroupId ?? '',
    classIds: pupil?.classIds ?? [],
  }
}

function PupilForm({ pupil, onDone }: { pupil?: Pupil; onDone: () => void }) {
  const word = usePupilWord()
  const { toast } = useToast()
  const save = useSavePupil()
  const classes = useClasses()
  const yearGroups = useYearGroups()
  const formGroups = useFormGroups()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PupilValues>({
    resolver: zodResolver(pupilSchema),
    defaultValues: toValues(pupil),
  })

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({
        id: pupil?.id ?? null,
        forename: values.forename,
        surname: values.surname,
        email: values.email || null,
        parentEmail: values.parentEmail || null,
        // Only with a parent address: the language belongs to that address's preferences.
        parentLanguage: values.parentEmail ? values.parentLanguage : null,
        upn: values.upn || null,
        yearGroupId: values.yearGroupId || null,
        formGroupId: values.formGroupId || null,
        classIds: values.classIds,
      })
      toast({ title: pupil ? `${word.One} saved.` : `${word.One} added.`, tone: 'success' })
      onDone()
    } catch (error) {
      if (!setServerErrors(error, setError, FIELDS)) toast(failureToast(error))
    }
  })

  return (
    <Section title={pupil ? `Edit ${pupil.forename} ${pupil.surname}` : `Add a ${word.one}`}>
      {pupil && <PupilRefusals studentId={pupil.id} />}
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Forename" error={errors.forename?.message}>
            <Input {...register('forename')} />
          </FormField>
          <FormField label="Surname" error={errors.surname?.message}>
            <Input {...register('surname')} />
          </FormField>
          <FormField label={`${word.One} e-mail`} error={errors.email?.message}>
            <Input type="email" {...register('email')} />
          </FormField>
          <FormField label="Parent e-mail" error={errors.parentEmail?.message}>
            <Input type="email" {...register('parentEmail')} />
          </FormField>
          <FormField
            label="Parent's language"
            error={errors.parentLanguage?.message}
            hint="E-mails to the parent are translated into it when an AI model is set up."
          >
            <LanguageSelect current={pupil?.parentLanguage ?? 'en'} {...register('parentLanguage')} />
          </FormField>
          <FormField label="UPN" error={errors.upn?.message} hint={`Unique ${word.one} number, if you use one.`}>
            <Input {...register('upn')} />
          </FormField>
          <FormField label="Year group" error={errors.yearGroupId?.message}>
            <Select {...register('yearGroupId')}>
              <option value="">None</option>
              {yearGroups.data?.map((group) => (
                <option key={group.id} value={group.id}>
                  {group.name}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label="Form group" error={errors.formGroupId?.message}>
            <Select {...register('formGroupId')}>
              <option value="">None</option>
              {formGroups.data?.map((group) => (
                <option key={group.id} value={group.id}>
                  {group.name}
                </option>
              ))}
            </Select>
          </FormField>
        </div>
        <fieldset className="space-y-2" aria-describedby={errors.classIds ? 'pupil-classes-error' : undefined}>
          <legend className="text-sm font-medium">Classes</legend>
          {classes.data?.length === 0 && <p className="text-sm text-muted-foreground">The school has no classes yet.</p>}
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {classes.data?.map((group) => (
              <label key={group.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" value={group.id} className="size-4 accent-primary" {...register('classIds')} />
                {group.name}
              </label>
            ))}
          </div>
          {errors.classIds && (
            <p id="pupil-classes-error" className="text-sm text-destructive">
              {errors.classIds.message}
            </p>
          )}
        </fieldset>
        <div className="flex gap-2">
          <Button type="submit" disabled={isSubmitting}>
            {pupil ? `Save ${word.one}` : `Add ${word.one}`}
          </Button>
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </Section>
  )
}

const TEMPLATE = 'forename,surname,email,parentEmail,upn,yearGroup,formGroup'

function ImportForm() {
  const word = usePupilWord()
  const { toast } = useToast()
  const importPupils = useImportPupils()
  const [file, setFile] = useState<File | null>(null)
  const [problems, setProblems] = useState<string[]>([])
  const [busy, setBusy] = useState(false)

  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (!file) {
      setProblems(['Choose a CSV file.'])
      return
    }
    if (file.size > 1024 * 1024) {
      setProblems(['The file is larger than 1 MB. Split it into smaller files.'])
      return
    }
    setBusy(true)
    try {
      const { imported } = await importPupils.mutateAsync({ csv: await file.text() })
      setProblems([])
      toast({ title: `${imported} ${imported === 1 ? word.one : word.many} imported.`, tone: 'success' })
    } catch (error) {
      const lines = allFieldMessages(error, 'csv')
      setProblems(lines.length > 0 ? lines : [errorMessage(error)])
    } finally {
      setBusy(false)
    }
  }

  return (
    <Section title={`Import ${word.many} from a CSV file`}>
      <p className="text-sm text-muted-foreground">
        The first line names the columns: <code className="rounded bg-muted px-1 break-all">{TEMPLATE}</code>. Forename and surname are
        required; year and form groups are created when missing. At most 5,000 {word.many} and 1 MB per file. Nothing is
        imported until every line is correct.
      </p>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormField label="CSV file">
          <Input
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null)
              setProblems([])
            }}
          />
        </FormField>
        {problems.length > 0 && (
          <Alert>
            <p className="font-medium">Nothing was imported. Fix these lines and try again:</p>
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </Alert>
        )}
        <Button type="submit" disabled={busy}>
          Import {word.many}
        </Button>
      </form>
    </Section>
  )
}

/** The refusal of the edited pupil's addresses, above their form: saving lifts it. */
function PupilRefusals({ studentId }: { studentId: string }) {
  const refused = useRefusedAddresses()
  const mine = refused.data?.addresses.filter((r) => r.studentId === studentId) ?? []
  if (mine.length === 0) return null
  return (
    <div className="mb-4 space-y-2">
      {mine.map((r) => (
        <Alert key={r.audience} tone="info">
          {r.sentence}
        </Alert>
      ))}
    </div>
  )
}

/** Every pupil with a refused address, for schools with or without an MIS. */
function RefusedAddresses() {
  const word = usePupilWord()
  const refused = useRefusedAddresses()
  const rows = refused.data?.addresses ?? []
  if (rows.length === 0) return null
  return (
    <Section title={`Refused e-mail addresses (${rows.length})`}>
      <p className="mb-2 text-sm text-muted-foreground">
        A mail server refused these addresses, so nothing more is sent to them. Correct the address on the {word.one}&apos;s
        record, or save it again once the family has confirmed it.
      </p>
      <ul aria-label="Refused e-mail addresses" className="list-disc space-y-1 pl-5 text-sm">
        {rows.map((r) => (
          <li key={`${r.studentId}-${r.audience}`}>
            <span className="font-medium">{r.name}</span>: {r.sentence}
          </li>
        ))}
      </ul>
    </Section>
  )
}

export function PupilsTab() {
  const word = usePupilWord()
  const [search, setSearch] = useState('')
  const pages = useCursorPages()
  const [editing, setEditing] = useState<Pupil | 'new' | null>(null)
  const pupils = usePupils(search, pages.cursor)

  return (
    <div className="space-y-6">
      {editing ? (
        <PupilForm key={editing === 'new' ? 'new' : editing.id} pupil={editing === 'new' ? undefined : editing} onDone={() => setEditing(null)} />
      ) : (
        <Button onClick={() => setEditing('new')}>Add {word.one}</Button>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-72">
          <FormField label={`Search ${word.many}`}>
            <Input
              type="search"
              value={search}
              onChange={(event) => {
                setSearch(event.target.value)
                pages.reset()
              }}
            />
          </FormField>
        </div>
        {pupils.data && (
          <p className="pb-2 text-sm text-muted-foreground" role="status">
            {pupils.data.total} {pupils.data.total === 1 ? word.one : word.many}
          </p>
        )}
      </div>
      {pupils.isError && <Alert>{errorMessage(pupils.error)}</Alert>}
      <RefusedAddresses />
      <DataTable caption={word.Many} headers={['Name', 'Year group', 'Form group', 'UPN', 'Parent e-mail', '']}>
        {pupils.data?.pupils.map((pupil) => (
          <tr key={pupil.id}>
            <Cell>
              {pupil.forename} {pupil.surname}
            </Cell>
            <Cell>{pupil.yearGroup}</Cell>
            <Cell>{pupil.formGroup}</Cell>
            <Cell>{pupil.upn}</Cell>
            <Cell>{pupil.parentEmail}</Cell>
            <Cell>
              <Button size="sm" variant="outline" onClick={() => setEditing(pupil)} aria-label={`Edit ${pupil.forename} ${pupil.surname}`}>
                Edit
              </Button>
            </Cell>
          </tr>
        ))}
      </DataTable>
      {pupils.data && (
        <CursorPager
          pages={pages}
          total={pupils.data.total}
          pageSize={pupils.data.pageSize}
          nextCursor={pupils.isPlaceholderData ? null : pupils.data.nextCursor}
        />
      )}
      <ImportForm />
    </div>
  )
}
