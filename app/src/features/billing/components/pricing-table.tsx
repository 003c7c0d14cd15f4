//! Stripe's pricing table (stripe.md §1): loads the configured `pricing-table.js` once and
//! renders `<stripe-pricing-table>` with the school's customer session and reference.

import { createElement, useEffect, useState } from 'react'

/** Adds the script once per page; resolves when it has loaded. */
const loading = new Map<string, Promise<void>>()
function loadScript(src: string): Promise<void> {
  let promise = loading.get(src)
  if (!promise) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script')
      script.src = src
      script.async = true
      script.onload = () => resolve()
      script.onerror = () => {
        loading.delete(src)
        script.remove()
        reject(new Error('The payment provider’s pricing table could not be loaded.'))
      }
      document.head.appendChild(script)
    })
    loading.set(src, promise)
  }
  return promise
}

export function PricingTable({
  scriptUrl,
  pricingTableId,
  publishableKey,
  clientSecret,
  clientReferenceId,
}: {
  scriptUrl: string
  pricingTableId: string
  publishableKey: string
  clientSecret: string
  clientReferenceId: string
}) {
  const [state, setState] = useState<'loading' | 'ready' | string>('loading')
  useEffect(() => {
    let live = true
    loadScript(scriptUrl).then(
      () => live && setState('ready'),
      (error: Error) => live && setState(error.message),
    )
    return () => {
      live = false
    }
  }, [scriptUrl])

  if (state === 'loading') return <p className="text-sm text-muted-foreground">Loading plans…</p>
  if (state !== 'ready')
    return (
      <p role="alert" className="text-sm text-destructive">
        {state} Please check your connection and try again.
      </p>
    )
  return createElement('stripe-pricing-table', {
    'pricing-table-id': pricingTableId,
    'publishable-key': publishableKey,
    'customer-session-client-secret': clientSecret,
    'client-reference-id': clientReferenceId,
  })
}
