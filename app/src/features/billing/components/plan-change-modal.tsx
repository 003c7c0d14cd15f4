//! The plan-change modal after a return from billing (spec section 4): `?success` in the
//! address shows 'Welcome to Pro' or "You've switched to the Basic Plan" with Continue.
//! Escape and outside clicks do not close it. The session is refreshed (while Stripe's event
//! is still being applied, for up to 20 s, until the plan shows), and the user list and
//! seat information are refreshed; Continue removes the parameter.

import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'

import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { isPro, useSession } from '@/lib/session'

/** How long to wait for the webhook's change to reach the session, and how often to look. */
const WAIT_MS = 20_000
const EVERY_MS = 1_500

/** The queries a plan change affects (by key: `['rpc', path]`). */
const REFRESHED = ['user.list', 'leader.getSeatInfo']

export function PlanChangeModal() {
  const [params, setParams] = useSearchParams()
  const returned = params.has('success')
  const { refresh } = useSession()
  const queryClient = useQueryClient()
  const [plan, setPlan] = useState<'checking' | 'pro' | 'basic'>('checking')

  useEffect(() => {
    if (!returned) return
    setPlan('checking')
    for (const path of REFRESHED) void queryClient.invalidateQueries({ queryKey: ['rpc', path] })
    let live = true
    const started = Date.now()
    const look = async () => {
      const session = await refresh().catch(() => null)
      if (!live) return
      if (session && isPro(session.user)) return setPlan('pro')
      if (Date.now() - started >= WAIT_MS) return setPlan('basic')
      window.setTimeout(() => void look(), EVERY_MS)
    }
    void look()
    return () => {
      live = false
    }
  }, [returned, refresh, queryClient])

  if (!returned) return null
  const keep = (event: Event) => event.preventDefault()
  return (
    <Dialog open>
      <DialogContent onEscapeKeyDown={keep} onPointerDownOutside={keep} onInteractOutside={keep}>
        <DialogTitle className="text-lg font-semibold">
          {plan === 'checking' ? 'Confirming your plan…' : plan === 'pro' ? 'Welcome to Pro' : "You've switched to the Basic Plan"}
        </DialogTitle>
        <DialogDescription className="mt-2 text-sm text-muted-foreground">
          {plan === 'checking'
            ? 'We are waiting for the payment provider to confirm the change.'
            : plan === 'pro'
              ? 'Your school now has unlimited tasks, priority support, team collaboration and extra users.'
              : 'Your school is on the Basic plan: a limited number of tasks per week, no collaboration and no extra users.'}
        </DialogDescription>
        <div className="mt-6 flex justify-end">
          <Button
            disabled={plan === 'checking'}
            onClick={() => {
              const next = new URLSearchParams(params)
              next.delete('success')
              setParams(next, { replace: true })
            }}
          >
            Continue
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  )
}
