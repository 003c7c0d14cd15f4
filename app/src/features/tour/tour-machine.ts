//! The tour's state machine (spec section 4): idle until it starts on /leaders or
//! /leaders/tasks for a user who has not completed the tutorial on a wide screen; active at a
//! step index starting at 0; closed by a browser back or forward navigation or once finished
//! or skipped. A narrow screen puts it back to idle (it may start again when wide).

import { canonicalPath, fixedRoute, routeMatches, TASK_EDIT_ROUTE, type TourStep } from './steps'

export type TourState =
  | { status: 'idle' }
  | {
      status: 'active'
      /** The step shown, from 0. */
      index: number
      /** The path the tour last saw, so a route change is only acted on once. */
      pathname: string
    }
  | { status: 'closed' }

export type TourAction =
  | { type: 'start'; pathname: string }
  | { type: 'next'; total: number }
  | { type: 'back' }
  | { type: 'route'; pathname: string; steps: readonly TourStep[] }
  | { type: 'popstate' }
  | { type: 'narrow' }
  | { type: 'done' }

export const INITIAL_TOUR_STATE: TourState = { status: 'idle' }

/** The pages the tour starts on. */
export const START_ROUTES = ['/leaders', '/leaders/tasks'] as const

/** The screen width from which the tour shows (spec section 2: desktop only). */
export const WIDE_QUERY = '(min-width: 48em)'

export interface StartConditions {
  pathname: string
  /** The session's `hasCompletedTutorial`. */
  completed: boolean
  /** Whether the screen is at least 48em wide. */
  wide: boolean
}

/** Whether the tour should start now. */
export function shouldStart(state: TourState, { pathname, completed, wide }: StartConditions): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  return state.status === 'idle' && !completed && wide && (START_ROUTES as readonly string[]).includes(path)
}

/**
 * The step to move to when the user arrives at `pathname` while on step `index`: the next
 * step that lives on a page, when that page is `pathname` and the current step's page is not
 * (steps in between that live on every page, the sidebar links, are passed over: the user did
 * what they asked). Otherwise `index`.
 */
export function advanceForRoute(steps: readonly TourStep[], index: number, pathname: string): number {
  const current = steps[index]
  if (current?.route && routeMatches(current.route, pathname)) return index
  for (let next = index + 1; next < steps.length; next++) {
    const route = steps[next].route
    if (!route) continue
    return routeMatches(route, pathname) ? next : index
  }
  return index
}

export function tourReducer(state: TourState, action: TourAction): TourState {
  switch (action.type) {
    case 'start':
      return state.status === 'idle' ? { status: 'active', index: 0, pathname: action.pathname } : state
    case 'next':
      if (state.status !== 'active') return state
      return { ...state, index: Math.min(state.index + 1, Math.max(action.total - 1, 0)) }
    case 'back':
      if (state.status !== 'active') return state
      return { ...state, index: Math.max(state.index - 1, 0) }
    case 'route': {
      if (state.status !== 'active') return state
      if (canonicalPath(state.pathname) === canonicalPath(action.pathname)) return { ...state, pathname: action.pathname }
      return { ...state, pathname: action.pathname, index: advanceForRoute(action.steps, state.index, action.pathname) }
    }
    case 'popstate':
      return state.status === 'active' ? { status: 'closed' } : state
    case 'narrow':
      return state.status === 'active' ? { status: 'idle' } : state
    case 'done':
      return { status: 'closed' }
  }
}

/** The label of the button that ends the tour: it finishes on the last step, skips before. */
export function endLabel(index: number, total: number): 'Finish tour' | 'Skip tour' {
  return index >= total - 1 ? 'Finish tour' : 'Skip tour'
}

/**
 * The page Next or Back opens when moving to step `target` from `pathname`: the step's page
 * when it is one fixed address the user is not on. Back never leaves a task being edited (the
 * steps about that page would lose their task). `undefined`: stay.
 */
export function pageFor(
  steps: readonly TourStep[],
  target: number,
  pathname: string,
  direction: 'next' | 'back',
): string | undefined {
  const route = fixedRoute(steps[target])
  if (!route || routeMatches(route, pathname)) return undefined
  if (direction === 'back' && routeMatches(TASK_EDIT_ROUTE, pathname)) return undefined
  return route
}

export type TourKey = 'next' | 'back' | 'skip'

/** What a key press does while the tour shows: ArrowRight next, ArrowLeft back, Escape skip. */
export function tourKey(key: string): TourKey | undefined {
  if (key === 'ArrowRight') return 'next'
  if (key === 'ArrowLeft') return 'back'
  if (key === 'Escape') return 'skip'
  return undefined
}

export interface Rect {
  top: number
  left: number
  width: number
  height: number
}

export type Placement = 'below' | 'above' | 'right' | 'left' | 'centre' | 'corner'

/** The gap between the anchor and the popover, and the popover's margin from the screen edge. */
const GAP = 12
const MARGIN = 8

/**
 * Where the popover goes: below the anchor when it fits, else above, else beside it (tall
 * elements such as a form), else in the bottom right corner; beside it first when `prefer` is
 * 'right' (the sidebar links); centred on the screen without an anchor. Always kept on screen.
 */
export function placePopover(
  anchor: Rect | null,
  popover: { width: number; height: number },
  viewport: { width: number; height: number },
  prefer: 'below' | 'right' = 'below',
): { top: number; left: number; placement: Placement } {
  const clamp = (value: number, size: number, room: number) =>
    Math.max(MARGIN, Math.min(value, room - size - MARGIN))
  if (!anchor) {
    return {
      top: clamp((viewport.height - popover.height) / 2, popover.height, viewport.height),
      left: clamp((viewport.width - popover.width) / 2, popover.width, viewport.width),
      placement: 'centre',
    }
  }
  const alignedLeft = clamp(anchor.left, popover.width, viewport.width)
  const alignedTop = clamp(anchor.top, popover.height, viewport.height)
  const below = anchor.top + anchor.height + GAP
  const above = anchor.top - GAP - popover.height
  const right = anchor.left + anchor.width + GAP
  const left = anchor.left - GAP - popover.width
  const candidates: { fits: boolean; top: number; left: number; placement: Placement }[] = [
    { fits: below + popover.height + MARGIN <= viewport.height, top: below, left: alignedLeft, placement: 'below' },
    { fits: above >= MARGIN, top: above, left: alignedLeft, placement: 'above' },
    { fits: right + popover.width + MARGIN <= viewport.width, top: alignedTop, left: right, placement: 'right' },
    { fits: left >= MARGIN, top: alignedTop, left, placement: 'left' },
  ]
  if (prefer === 'right') candidates.unshift(candidates.splice(2, 1)[0])
  const chosen = candidates.find((candidate) => candidate.fits)
  if (chosen) return { top: chosen.top, left: chosen.left, placement: chosen.placement }
  // No side has room: a corner of the screen the anchor does not reach (the bottom right
  // first), so the bubble never covers what it describes.
  const bottom = clamp(viewport.height - popover.height, popover.height, viewport.height)
  const rightEdge = clamp(viewport.width - popover.width, popover.width, viewport.width)
  const corners = [
    { top: bottom, left: rightEdge },
    { top: MARGIN, left: rightEdge },
    { top: bottom, left: MARGIN },
    { top: MARGIN, left: MARGIN },
  ]
  const clear = corners.find((corner) => !intersects({ ...corner, ...popover }, anchor))
  return { ...(clear ?? corners[0]), placement: 'corner' }
}

/** Whether two boxes overlap (touching edges do not count). */
export function intersects(a: Rect, b: Rect): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height
}
