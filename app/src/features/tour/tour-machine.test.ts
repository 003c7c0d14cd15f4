import { describe, expect, it } from 'vitest'

import { stepsFor, TOUR_STEPS } from './steps'
import {
  advanceForRoute,
  endLabel,
  INITIAL_TOUR_STATE,
  pageFor,
  intersects,
  placePopover,
  shouldStart,
  tourKey,
  tourReducer,
  type TourAction,
  type TourState,
} from './tour-machine'

const ALL = stepsFor(true)
const TEACHER = stepsFor(false)
const run = (actions: TourAction[], from: TourState = INITIAL_TOUR_STATE) => actions.reduce(tourReducer, from)
const at = (index: number, pathname = '/leaders/tasks'): TourState => ({ status: 'active', index, pathname })
const indexOf = (anchor: string, steps = ALL) => steps.findIndex((step) => step.anchor === anchor)

describe('the steps', () => {
  it('are the 16 the spec lists, in order, with distinct anchors', () => {
    expect(TOUR_STEPS.map((step) => step.anchor)).toEqual([
      'nav-templates', 'create-template', 'template-form', 'nav-tasks', 'new-task', 'task-step-1',
      'content-voice-notes', 'content-upload', 'content-photos', 'content-record', 'content-overview',
      'autofill', 'collaborate', 'save-task', 'nav-report-generator', 'report-form',
    ])
    for (const step of TOUR_STEPS) {
      expect(step.title.trim()).not.toBe('')
      expect(step.text.trim()).not.toBe('')
    }
  })

  it('drop the three Templates steps for users who cannot open Templates', () => {
    expect(ALL).toHaveLength(16)
    expect(TEACHER).toHaveLength(13)
    expect(TEACHER[0].anchor).toBe('nav-tasks')
  })

  it('say what the Microsoft connection is for without promising a button', () => {
    const upload = TOUR_STEPS[indexOf('content-upload')]
    expect(upload.text).toMatch(/OneDrive/)
    expect(upload.text).toMatch(/SharePoint/)
    expect(upload.text).toMatch(/Teams recordings/)
    expect(upload.text).not.toMatch(/click|press|button/i)
  })

  it('puts the popover beside the sidebar links', () => {
    expect(TOUR_STEPS.filter((step) => step.side === 'right').map((step) => step.anchor)).toEqual([
      'nav-templates', 'nav-tasks', 'nav-report-generator',
    ])
  })
})

describe('starting', () => {
  const wide = { pathname: '/leaders/tasks', completed: false, wide: true }

  it('starts on /leaders and /leaders/tasks for a user who has not completed the tutorial', () => {
    expect(shouldStart(INITIAL_TOUR_STATE, wide)).toBe(true)
    expect(shouldStart(INITIAL_TOUR_STATE, { ...wide, pathname: '/leaders' })).toBe(true)
    expect(shouldStart(INITIAL_TOUR_STATE, { ...wide, pathname: '/leaders/tasks/' })).toBe(true)
  })

  it('does not start elsewhere, once completed, on a narrow screen, or when already showing or closed', () => {
    expect(shouldStart(INITIAL_TOUR_STATE, { ...wide, pathname: '/leaders/templates' })).toBe(false)
    expect(shouldStart(INITIAL_TOUR_STATE, { ...wide, pathname: '/' })).toBe(false)
    expect(shouldStart(INITIAL_TOUR_STATE, { ...wide, completed: true })).toBe(false)
    expect(shouldStart(INITIAL_TOUR_STATE, { ...wide, wide: false })).toBe(false)
    expect(shouldStart(at(3), wide)).toBe(false)
    expect(shouldStart({ status: 'closed' }, wide)).toBe(false)
  })

  it('sits at step index 0 once started', () => {
    expect(run([{ type: 'start', pathname: '/leaders/tasks' }])).toEqual(at(0))
    // A second start does not move it.
    expect(run([{ type: 'start', pathname: '/leaders/tasks' }], at(4))).toEqual(at(4))
  })
})

describe('next, back, skip and finish', () => {
  it('moves one step forward and back, never past either end', () => {
    expect(run([{ type: 'next', total: 16 }], at(0))).toEqual(at(1))
    expect(run([{ type: 'next', total: 16 }], at(15))).toEqual(at(15))
    expect(run([{ type: 'back' }], at(5))).toEqual(at(4))
    expect(run([{ type: 'back' }], at(0))).toEqual(at(0))
    expect(run([{ type: 'next', total: 16 }, { type: 'back' }], INITIAL_TOUR_STATE)).toEqual(INITIAL_TOUR_STATE)
  })

  it('walks all 16 steps with next, the last index being 15', () => {
    let state: TourState = run([{ type: 'start', pathname: '/leaders/tasks' }])
    for (let i = 0; i < 20; i++) state = tourReducer(state, { type: 'next', total: ALL.length })
    expect(state).toEqual(at(15))
  })

  it('names the end button Skip tour before the last step and Finish tour on it', () => {
    expect(endLabel(0, 16)).toBe('Skip tour')
    expect(endLabel(14, 16)).toBe('Skip tour')
    expect(endLabel(15, 16)).toBe('Finish tour')
    expect(endLabel(12, 13)).toBe('Finish tour')
  })

  it('closes for good once finished or skipped', () => {
    const closed = run([{ type: 'done' }], at(7))
    expect(closed).toEqual({ status: 'closed' })
    expect(shouldStart(closed, { pathname: '/leaders/tasks', completed: false, wide: true })).toBe(false)
  })

  it('maps ArrowRight to next, ArrowLeft to back, Escape to skip', () => {
    expect(tourKey('ArrowRight')).toBe('next')
    expect(tourKey('ArrowLeft')).toBe('back')
    expect(tourKey('Escape')).toBe('skip')
    expect(tourKey('Enter')).toBeUndefined()
  })
})

describe('moving on by route', () => {
  const route = (pathname: string, steps = ALL): TourAction => ({ type: 'route', pathname, steps })

  it('moves to the next step when the user reaches its page', () => {
    // 1 Templates nav -> clicking it opens /leaders/templates, step 2's page.
    expect(run([route('/leaders/templates')], at(0))).toEqual(at(1, '/leaders/templates'))
    // 2 Create template -> its form.
    expect(run([route('/leaders/templates/create')], at(1, '/leaders/templates'))).toEqual(
      at(2, '/leaders/templates/create'),
    )
    // 6 Task step 1 -> the created task's page.
    expect(run([route('/leaders/tasks/abc/edit')], at(5, '/leaders/tasks/create'))).toEqual(
      at(6, '/leaders/tasks/abc/edit'),
    )
    // 15 Report generator nav -> its page.
    expect(run([route('/leaders/report-generator')], at(14, '/leaders/tasks/abc/edit'))).toEqual(
      at(15, '/leaders/report-generator'),
    )
  })

  it('passes over a sidebar step the user already followed', () => {
    // On the template form (3), the user opens Tasks: step 4 (Tasks nav) is done, 5 shows.
    expect(advanceForRoute(ALL, indexOf('template-form'), '/leaders/tasks')).toBe(indexOf('new-task'))
  })

  it('stays when the page is the current step’s own, or not the next step’s', () => {
    expect(advanceForRoute(ALL, indexOf('content-upload'), '/leaders/tasks/other/edit')).toBe(indexOf('content-upload'))
    expect(advanceForRoute(ALL, 0, '/leaders/voice-notes')).toBe(0)
    expect(advanceForRoute(ALL, indexOf('report-form'), '/leaders/tasks')).toBe(indexOf('report-form'))
    // A teacher coming back to the Tasks page from elsewhere has followed the Tasks nav step.
    expect(run([route('/leaders/tasks', TEACHER)], at(0, '/leaders/voice-notes'))).toEqual(at(1, '/leaders/tasks'))
  })

  it('takes /leaders and /leaders/tasks for the same page (one may send to the other)', () => {
    expect(run([route('/leaders/tasks', TEACHER)], at(0, '/leaders'))).toEqual(at(0, '/leaders/tasks'))
    expect(run([route('/leaders/tasks')], at(0, '/leaders'))).toEqual(at(0, '/leaders/tasks'))
    expect(pageFor(TEACHER, 1, '/leaders', 'next')).toBeUndefined()
  })

  it('acts once per page change and not when inactive', () => {
    expect(run([route('/leaders/templates'), route('/leaders/templates')], at(0))).toEqual(at(1, '/leaders/templates'))
    expect(run([route('/leaders/templates')])).toEqual(INITIAL_TOUR_STATE)
  })
})

describe('closing', () => {
  it('closes on a browser back or forward navigation and does not start again on this page load', () => {
    const closed = run([{ type: 'popstate' }], at(3))
    expect(closed).toEqual({ status: 'closed' })
    expect(shouldStart(closed, { pathname: '/leaders/tasks', completed: false, wide: true })).toBe(false)
    expect(run([{ type: 'popstate' }])).toEqual(INITIAL_TOUR_STATE)
  })

  it('closes when the screen becomes narrow, and may start again once wide', () => {
    const narrowed = run([{ type: 'narrow' }], at(9))
    expect(narrowed).toEqual(INITIAL_TOUR_STATE)
    expect(shouldStart(narrowed, { pathname: '/leaders/tasks', completed: false, wide: false })).toBe(false)
    expect(shouldStart(narrowed, { pathname: '/leaders/tasks', completed: false, wide: true })).toBe(true)
  })
})

describe('the page Next and Back open', () => {
  it('opens the next step’s page when it is one fixed address', () => {
    expect(pageFor(ALL, 1, '/leaders/tasks', 'next')).toBe('/leaders/templates')
    expect(pageFor(ALL, 2, '/leaders/templates', 'next')).toBe('/leaders/templates/create')
    expect(pageFor(ALL, indexOf('new-task'), '/leaders/templates/create', 'next')).toBe('/leaders/tasks')
    expect(pageFor(ALL, indexOf('report-form'), '/leaders/tasks/x/edit', 'next')).toBe('/leaders/report-generator')
  })

  it('stays for sidebar steps, a task’s page, or when already there', () => {
    expect(pageFor(ALL, indexOf('nav-tasks'), '/leaders/templates/create', 'next')).toBeUndefined()
    expect(pageFor(ALL, indexOf('content-voice-notes'), '/leaders/tasks/create', 'next')).toBeUndefined()
    expect(pageFor(ALL, indexOf('new-task'), '/leaders/tasks', 'next')).toBeUndefined()
  })

  it('goes back to a fixed page, but never away from a task being edited', () => {
    expect(pageFor(ALL, 1, '/leaders/templates/create', 'back')).toBe('/leaders/templates')
    expect(pageFor(ALL, indexOf('task-step-1'), '/leaders/tasks/x/edit', 'back')).toBeUndefined()
  })
})

describe('placing the popover', () => {
  const viewport = { width: 1280, height: 720 }
  const popover = { width: 352, height: 200 }

  it('is centred without an anchor', () => {
    expect(placePopover(null, popover, viewport)).toEqual({ top: 260, left: 464, placement: 'centre' })
  })

  it('goes below the anchor, or above it near the bottom, kept on screen', () => {
    expect(placePopover({ top: 100, left: 20, width: 260, height: 36 }, popover, viewport)).toEqual({
      top: 148,
      left: 20,
      placement: 'below',
    })
    expect(placePopover({ top: 600, left: 1200, width: 60, height: 36 }, popover, viewport)).toEqual({
      top: 388,
      left: 920,
      placement: 'above',
    })
  })

  it('goes beside a sidebar link first, below it when the side has no room', () => {
    const link = { top: 116, left: 16, width: 268, height: 36 }
    expect(placePopover(link, popover, viewport, 'right')).toEqual({ top: 116, left: 296, placement: 'right' })
    expect(placePopover(link, popover, { width: 600, height: 720 }, 'right').placement).toBe('below')
  })

  it('goes beside a tall element, or in the corner when nothing fits', () => {
    expect(placePopover({ top: 80, left: 320, width: 500, height: 600 }, popover, viewport).placement).toBe('right')
    expect(placePopover({ top: 80, left: 700, width: 500, height: 600 }, popover, viewport).placement).toBe('left')
    expect(placePopover({ top: 0, left: 0, width: 1280, height: 720 }, popover, viewport)).toEqual({
      top: 512,
      left: 920,
      placement: 'corner',
    })
  })

  it('in the corner, picks one the anchor does not reach', () => {
    // A wide element filling all but the top strip: the top right corner is clear of it.
    const form = { top: 212, left: 300, width: 980, height: 900 }
    const placed = placePopover(form, popover, viewport)
    expect(placed.placement).toBe('corner')
    expect(intersects({ ...placed, ...popover }, form)).toBe(false)
    expect(placed).toMatchObject({ top: 8, left: 920 })
  })

  it('tells overlapping boxes from touching ones', () => {
    expect(intersects({ top: 0, left: 0, width: 10, height: 10 }, { top: 5, left: 5, width: 10, height: 10 })).toBe(true)
    expect(intersects({ top: 0, left: 0, width: 10, height: 10 }, { top: 10, left: 0, width: 10, height: 10 })).toBe(false)
  })
})
