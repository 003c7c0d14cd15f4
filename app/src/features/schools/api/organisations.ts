//! `/schools`' calls: every organisation with its counts, the trusts, and saving one.

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { invalidateRpc, useRpcMutation, useRpcQuery } from '@/lib/rpc'
import { MAX_ORGANISATION_NAME_CHARS } from '@/generated/limits'
import { optionalText, requiredText } from '@/lib/form-limits'

export const useAdminOrganisations = () => useRpcQuery('organisation.adminList', undefined, { retry: false })
export const useTrusts = () => useRpcQuery('organisation.trusts', undefined, { retry: false })

export const PLANS = ['Basic', 'Pro', 'Enterprise'] as const
/** The trust select's value for "create a new trust". */
export const NEW_TRUST = '__new__'

export const organisationSchema = z
  .object({
    name: requiredText("Enter the organisation's name.", MAX_ORGANISATION_NAME_CHARS),
    orgType: z.enum(['SCHOOL', 'BUSINESS'], { message: 'Choose School or Business.' }),
    postcode: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9 ]{0,12}$/, 'Enter a valid postcode.'),
    seats: z
      .string()
      .trim()
      .regex(/^\d{0,6}$/, 'Enter a whole number of seats.')
      .refine((v) => v === '' || Number(v) <= 100_000, 'Enter a number of seats from 0 to 100000.'),
    plan: z.enum(PLANS, { message: 'Choose Basic, Pro or Enterprise.' }),
    redirectToLeaders: z.boolean(),
    trust: z.string(),
    newTrustName: optionalText(MAX_ORGANISATION_NAME_CHARS),
  })
  .refine((v) => v.trust !== NEW_TRUST || v.newTrustName.trim().length > 0, {
    path: ['newTrustName'],
    message: "Enter the new trust's name.",
  })

export type OrganisationValues = z.infer<typeof organisationSchema>

export function useSaveOrganisation() {
  const queryClient = useQueryClient()
  return useRpcMutation('organisation.save', { onSuccess: () => invalidateRpc(queryClient, 'organisation.') })
}
