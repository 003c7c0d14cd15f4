//! Billing's calls: whether card payments are set up (`system.features.billing`), the
//! pricing table's customer session, and the billing portal opened on click.

import { useRpcMutation, useRpcQuery } from '@/lib/rpc'

export type { BillingFeature } from '@/generated/rpc-types'

/** `system.features`; `billing` is `null` when the server has no Stripe settings. */
export const useBillingFeature = (enabled = true) =>
  useRpcQuery('system.features', undefined, { staleTime: 60_000, enabled })

/** A fresh customer session for the pricing table (short-lived: minted when the dialog opens). */
export const useCreateCustomerSession = () => useRpcMutation('leader.createCustomerSession')

/** A billing portal session for 'Manage subscription'. */
export const useCreateBillingPortalSession = () => useRpcMutation('user.createBillingPortalSession')
