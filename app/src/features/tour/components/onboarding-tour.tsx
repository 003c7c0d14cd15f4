//! The onboarding tour (spec sections 2 and 4), mounted once in the signed-in shell. It
//! starts on /leaders or /leaders/tasks for a user whose session says the tutorial is not
//! completed, on screens at least 48em wide; closes when the screen gets narrower or on a
//! browser back or forward navigation; moves on by itself when the user reaches the next
//! step's page. Finishing or skipping marks the tutorial complete, then reloads the page.

import { useEffect, useMemo, useReducer, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'

import { useMarkTutorialComplete } from '../api/mark-tutorial-complete'
import { routeMatches, stepsFor, TASK_EDIT_ROUTE } from '../steps'
import { INITIAL_TOUR_STATE, pageFor, shouldStart, tourKey, tourReducer, WIDE_QUERY } from '../tour-machine'
import { TourPopover } from './tour-popover'

function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia?.(query).matches ?? true)
  useEffect(() => {
    const list = window.matchMedia?.(query)
    if (!list) return
    const onChange = () => setMatches(list.matches)
    onChange()
    list.addEventListener('change', onChange)
    return () => list.removeEventListener('change', onChange)
  }, [query])
  return matches
}

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
  const busy = mark.isPending

  const openPageOf = (target: number, direction: 'next' | 'back') => {
    const page = pageFor(steps, target, pathname, direction)
    if (page) void navigate(page)
  }

  const next = () => {
    if (busy || index >= total - 1) return
    dispatch({ type: 'next', total })
    openPageOf(index + 1, 'next')
  }
  const back = () => {
    if (busy || index === 0) return
    dispatch({ type: 'back' })
    openPageOf(index - 1, 'back')
  }
  const end = () => {
    if (busy) return
    setError(undefined)
    mark.mutate(true, {
      onSuccess: () => {
        dispatch({ type: 'done' })
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
