//! Plans and payments (docs/billing.md), mounted by the shell: the pricing table of the
//! Upgrade dialog, the plan-change modal after a return from billing, the 'Unlock more
//! features' banner and 'Manage subscription'.

export { useCreateBillingPortalSession, useCreateCustomerSession } from './api/billing'
export { PlanChangeModal } from './components/plan-change-modal'
export { PricingTable } from './components/pricing-table'
export { UpgradeBanner } from './components/upgrade-banner'
