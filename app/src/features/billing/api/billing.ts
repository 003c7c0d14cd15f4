//! Billing's calls: whether card payments are set up (`system.features.billing`), the
//! pricing table's customer session, and the billing portal opened on click.

import { useRpcMutation } from '@/lib/rpc'

/** A fresh customer session for the pricing table (short-lived: minted when the dialog opens). */
export const useCreateCustomerSession = () => useRpcMutation('leader.createCustomerSession')

/** A billing portal session for 'Manage subscription'. */
export const useCreateBillingPortalSession = () => useRpcMutation('user.createBillingPortalSession')
