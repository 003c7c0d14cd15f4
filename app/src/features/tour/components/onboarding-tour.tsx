//! The onboarding tour (spec sections 2 and 4), mounted once in the signed-in shell. It
//! starts on /leaders or /leaders/tasks for a user whose session says the tutorial is not
//! completed, on screens at least 48em wide; closes when the screen gets narrower or on a
//! browser back or forward navigation; moves on by itself when the user reaches the next
//! step's page. Finishing or skipping marks the tutorial complete, then reloads the page.
//! Steps 7-14 describe a task's page: reached from the New task form with Next, the tour
//! opens a sample task (api/sample-task.ts) so each step points at the real control, and
//! deletes it again when it leaves those steps or ends.

import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useReducer, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'

import { invalidateRpc } from '@/lib/rpc'

import { useMediaQuery } from '@/lib/use-media-query'

import { useMarkTutorialComplete } from '../api/mark-tutorial-complete'
import { openSampleTask, removeSampleTask, type SampleTask } from '../api/sample-task'
import { routeMatches, stepsFor, TASK_EDIT_ROUTE } from '../steps'
import { INITIAL_TOUR_STATE, pageFor, shouldStart, tourKey, tourReducer, WIDE_QUERY } from '../tour-machine'
import { TourPopover } from './tour-popover'

const KEY_ROLES = new Set(['textbox', 'combobox', 'listbox', 'option', 'slider', 'spinbutton', 'radio', 'tab', 'menu', 'menuitem'])

/** Whether arrow keys already mean something where the focus is (typing, lists, sliders). */
function usesArrowKeys(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true
  return KEY_ROLES.has(target.getAttribute('role') ?? '')
}

/** Whether another dialog (e.g. the recorder) is open: the tour then leaves the keys to it. */
function otherDialogOpen(popover: HTMLElement | null): boolean {
  return [...document.querySelectorAll('[role="dialog"], [role="alertdialog"]')].some(
    (dialog) => dialog !== popover && dialog.getAttribute('data-state') === 'open',
  )
}

export interface OnboardingTourProps {
  hasCompletedTutorial: boolean
  /** Whether the user may open the Templates pages; `undefined` until the role check answers. */
  canSeeTemplates: boolean | undefined
  /** Reloads the page after the tutorial is marked complete (replaced in tests). */
  reload?: () => void
}

export function OnboardingTour({ hasCompletedTutorial, canSeeTemplates, reload }: OnboardingTourProps) {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const wide = useMediaQuery(WIDE_QUERY)
  const [state, dispatch] = useReducer(tourReducer, INITIAL_TOUR_STATE)
  const steps = useMemo(() => stepsFor(canSeeTemplates ?? false), [canSeeTemplates])
  const mark = useMarkTutorialComplete()
  const [error, setError] = useState<string>()
  const popover = useRef<HTMLDivElement | null>(null)
  const queryClient = useQueryClient()
  // The task steps 7-14 show on when the user had none open; a ref, so every handler sees it.
  const sample = useRef<SampleTask | null>(null)
  const [opening, setOpening] = useState(false)

  // Start (once the role check has answered, so the step count is right from step 1).
  useEffect(() => {
    if (canSeeTemplates === undefined) return
    if (shouldStart(state, { pathname, completed: hasCompletedTutorial, wide })) dispatch({ type: 'start', pathname })
  }, [canSeeTemplates, state, pathname, hasCompletedTutorial, wide])

  // Arriving at the next step's page moves on.
  useEffect(() => {
    dispatch({ type: 'route', pathname, steps })
  }, [pathname, steps])

  useEffect(() => {
    if (!wide) dispatch({ type: 'narrow' })
  }, [wide])

  useEffect(() => {
    const onPopState = () => dispatch({ type: 'popstate' })
    window.addEventListener('popstate', onPopState)
    return () => window.removeEventListener('popstate', onPopState)
  }, [])

  const active = state.status === 'active'
  const index = active ? state.index : 0
  const total = steps.length
  const busy = mark.isPending || opening

  const onTaskStep = (target: number) => steps[target]?.route === TASK_EDIT_ROUTE
  const onSamplePage = () => !!sample.current && pathname === `/leaders/tasks/${sample.current.id}/edit`

  /** Deletes the sample task (when the tour made it) and forgets it. */
  const dropSample = async () => {
    const held = sample.current
    sample.current = null
    if (!held?.created) return
    await removeSampleTask(held)
    await invalidateRpc(queryClient, 'task.')
  }

  // Closed by a browser back or forward navigation: the sample task goes too.
  useEffect(() => {
    if (state.status === 'closed' && sample.current) void dropSample()
  })

  const openPageOf = (target: number, direction: 'next' | 'back') => {
    const page = pageFor(steps, target, pathname, direction)
    if (page) void navigate(page)
  }

  const next = () => {
    if (busy) return
    // ArrowRight on the last step finishes, as Finish tour does.
    if (index >= total - 1) {
      end()
      return
    }
    const target = index + 1
    if (onTaskStep(target) && !onTaskStep(index) && !routeMatches(TASK_EDIT_ROUTE, pathname)) {
      // From the New task form, still empty: open a task so the steps point at real controls.
      setOpening(true)
      void openSampleTask().then((found) => {
        setOpening(false)
        dispatch({ type: 'next', total })
        if (!found) return
        sample.current = found
        if (found.created) void invalidateRpc(queryClient, 'task.')
        void navigate(`/leaders/tasks/${found.id}/edit`)
      })
      return
    }
    dispatch({ type: 'next', total })
    if (onTaskStep(index) && !onTaskStep(target) && onSamplePage()) {
      // Past the task steps: leave the sample task (and delete it when the tour made it).
      const created = sample.current?.created
      void dropSample()
      if (created) {
        void navigate('/leaders/tasks', { replace: true })
        return
      }
    }
    openPageOf(target, 'next')
  }
  const back = () => {
    if (busy || index === 0) return
    dispatch({ type: 'back' })
    if (onTaskStep(index) && !onTaskStep(index - 1) && onSamplePage()) {
      // Back to the New task form the sample task was opened from.
      void dropSample()
      void navigate('/leaders/tasks/create', { replace: true })
      return
    }
    openPageOf(index - 1, 'back')
  }
  const end = () => {
    if (busy) return
    setError(undefined)
    const leaveSample = onSamplePage() && !!sample.current?.created
    mark.mutate(true, {
      onSuccess: async () => {
        await dropSample()
        dispatch({ type: 'done' })
        // The sample task's page is gone: reload on the task list instead.
        if (leaveSample) window.history.replaceState(window.history.state, '', '/leaders/tasks')
        ;(reload ?? (() => window.location.reload()))()
      },
      onError: () => setError('Could not save that you have seen the tour. Please try again.'),
    })
  }

  const handlers = useRef({ next, back, end })
  handlers.current = { next, back, end }

  useEffect(() => {
    if (!active) return
    const onKey = (event: KeyboardEvent) => {
      const action = tourKey(event.key)
      if (!action || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
      const inside = !!popover.current && popover.current.contains(event.target as Node | null)
      if (!inside && (usesArrowKeys(event.target) || otherDialogOpen(popover.current))) return
      event.preventDefault()
      if (action === 'next') handlers.current.next()
      else if (action === 'back') handlers.current.back()
      else handlers.current.end()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [active])

  if (!active || !wide || total === 0) return null
  const step = steps[Math.min(index, total - 1)]
  const hint =
    step.route === TASK_EDIT_ROUTE && !routeMatches(TASK_EDIT_ROUTE, pathname)
      ? 'You will find this on a task’s page: open or create a task to see it in place.'
      : undefined

  return (
    <TourPopover
      ref={popover}
      step={step}
      index={index}
      total={total}
      hint={hint}
      busy={busy}
      error={error}
      onNext={next}
      onBack={back}
      onEnd={end}
    />
  )
}
