//! /schools (Manage organisations, superadmin): every organisation with its users and
//! pupils; create one, or edit its name, type, postcode, seats, plan, redirectToLeaders
//! and trust (an existing trust or a new one).

import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { AdminOrganisation } from '@/generated/rpc-types'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'

import {
  NEW_TRUST,
  PLANS,
  organisationSchema,
  useAdminOrganisations,
  useSaveOrganisation,
  useTrusts,
  type OrganisationValues,
} from '../api/organisations'

const EMPTY: OrganisationValues = {
  name: '',
  orgType: 'SCHOOL',
  postcode: '',
  seats: '',
  plan: 'Basic',
  redirectToLeaders: false,
  trust: '',
  newTrustName: '',
}

function valuesOf(org: AdminOrganisation): OrganisationValues {
  return {
    name: org.name,
    orgType: org.orgType === 'BUSINESS' ? 'BUSINESS' : 'SCHOOL',
    postcode: org.postcode ?? '',
    seats: org.seats === null ? '' : String(org.seats),
    plan: (PLANS as readonly string[]).includes(org.plan) ? (org.plan as OrganisationValues['plan']) : 'Basic',
    redirectToLeaders: org.redirectToLeaders,
    trust: org.trustId ?? '',
    newTrustName: '',
  }
}

export function SchoolsPage() {
  const organisations = useAdminOrganisations()
  const [search, setSearch] = useState('')
  // `null`: closed; `'new'`: creating; otherwise the organisation being edited.
  const [editing, setEditing] = useState<AdminOrganisation | 'new' | null>(null)
  const needle = search.trim().toLowerCase()
  const shown = (organisations.data ?? []).filter(
    (o) => !needle || `${o.name} ${o.postcode ?? ''} ${o.trustName ?? ''}`.toLowerCase().includes(needle),
  )

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="space-y-1">
          <h1 className="text-3xl font-bold tracking-tight">Manage organisations</h1>
          <p className="text-muted-foreground">Every school and business, with its plan, seats and trust.</p>
        </div>
        <Button onClick={() => setEditing('new')}>New organisation</Button>
      </div>
      <div className="max-w-sm">
        <FormField label="Search organisations">
          <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </FormField>
      </div>
      {organisations.isError && <Alert>{errorMessage(organisations.error)}</Alert>}
      {organisations.isPending && <p role="status">Loading the organisations…</p>}
      {organisations.data && (
        <div className="overflow-x-auto rounded-lg border border-border">
          <table className="w-full text-sm">
            <caption className="sr-only">Organisations</caption>
            <thead className="bg-muted text-left">
              <tr>
                <th scope="col" className="px-3 py-2">Name</th>
                <th scope="col" className="px-3 py-2">Type</th>
                <th scope="col" className="px-3 py-2">Trust</th>
                <th scope="col" className="px-3 py-2">Plan</th>
                <th scope="col" className="px-3 py-2 text-right">Seats</th>
                <th scope="col" className="px-3 py-2 text-right">Users</th>
                <th scope="col" className="px-3 py-2 text-right">Pupils</th>
                <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {shown.map((org) => (
                <tr key={org.id} className="border-t border-border">
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    {org.name}
                    {org.postcode && <span className="block text-xs font-normal text-muted-foreground">{org.postcode}</span>}
                  </th>
                  <td className="px-3 py-2">{org.orgType === 'BUSINESS' ? 'Business' : 'School'}</td>
                  <td className="px-3 py-2">{org.trustName ?? '—'}</td>
                  <td className="px-3 py-2">{org.plan}</td>
                  <td className="px-3 py-2 text-right">{org.seats ?? '—'}</td>
                  <td className="px-3 py-2 text-right">{org.users}</td>
                  <td className="px-3 py-2 text-right">{org.pupils}</td>
                  <td className="px-3 py-2 text-right">
                    <Button variant="outline" size="sm" aria-label={`Edit ${org.name}`} onClick={() => setEditing(org)}>
                      Edit
                    </Button>
                  </td>
                </tr>
              ))}
              {shown.length === 0 && (
                <tr>
                  <td colSpan={8} className="px-3 py-6 text-center text-muted-foreground">
                    No organisation matches.
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <DialogContent className="max-h-[90dvh] overflow-y-auto">
          {editing !== null && (
            <OrganisationForm organisation={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
          )}
        </DialogContent>
      </Dialog>
    </div>
  )
}

const FIELDS = ['name', 'orgType', 'postcode', 'seats', 'plan', 'redirectToLeaders', 'trust', 'newTrustName'] as const

function OrganisationForm({ organisation, onDone }: { organisation: AdminOrganisation | null; onDone(): void }) {
  const trusts = useTrusts()
  const save = useSaveOrganisation()
  const { toast } = useToast()
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<OrganisationValues>({
    resolver: zodResolver(organisationSchema),
    defaultValues: organisation ? valuesOf(organisation) : EMPTY,
  })
  useEffect(() => reset(organisation ? valuesOf(organisation) : EMPTY), [organisation, reset])
  const trust = watch('trust')

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({
        id: organisation?.id ?? null,
        name: values.name.trim(),
        orgType: values.orgType,
        postcode: values.postcode || null,
        seats: values.seats === '' ? null : Number(values.seats),
        plan: values.plan,
        redirectToLeaders: values.redirectToLeaders,
        trustId: values.trust && values.trust !== NEW_TRUST ? values.trust : null,
        newTrustName: values.trust === NEW_TRUST ? values.newTrustName.trim() : null,
      })
      toast({ title: `${saved.name} saved.`, tone: 'success' })
      onDone()
    } catch (error) {
      if (!setServerErrors(error, setError, FIELDS, { trustId: 'trust' })) toast(failureToast(error))
    }
  })

  return (
    <>
      <DialogTitle className="text-xl font-semibold">
        {organisation ? `Edit ${organisation.name}` : 'New organisation'}
      </DialogTitle>
      <DialogDescription className="mb-4 text-sm text-muted-foreground">
        Without configured Stripe products, Pro and Enterprise are stored as a manual plan.
      </DialogDescription>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <FormField label="Name" error={errors.name?.message}>
          <Input {...register('name')} />
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Type" error={errors.orgType?.message}>
            <Select {...register('orgType')}>
              <option value="SCHOOL">School</option>
              <option value="BUSINESS">Business</option>
            </Select>
          </FormField>
          <FormField label="Postcode" error={errors.postcode?.message}>
            <Input {...register('postcode')} />
          </FormField>
          <FormField label="Plan" error={errors.plan?.message}>
            <Select {...register('plan')}>
              {PLANS.map((plan) => (
                <option key={plan} value={plan}>
                  {plan}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label="Seats" error={errors.seats?.message} hint="Empty: none bought.">
            <Input inputMode="numeric" {...register('seats')} />
          </FormField>
        </div>
        <FormField label="Trust" error={errors.trust?.message}>
          <Select {...register('trust')}>
            <option value="">No trust</option>
            {trusts.data?.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
            <option value={NEW_TRUST}>New trust…</option>
          </Select>
        </FormField>
        {trust === NEW_TRUST && (
          <FormField label="New trust name" error={errors.newTrustName?.message}>
            <Input {...register('newTrustName')} />
          </FormField>
        )}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" className="size-4 accent-primary" {...register('redirectToLeaders')} />
          Send users straight to the leaders area
        </label>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            Save organisation
          </Button>
        </div>
      </form>
    </>
  )
}
