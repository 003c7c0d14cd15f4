//! The onboarding tour's steps (spec section 2), as data: each names the `data-tour` anchor
//! it points at and the page it lives on. 16 steps are listed; the spec also gives the count
//! as 15, which is the last step's index (the tour's index starts at 0): see docs/leaders.md.

export interface TourStep {
  /** The `data-tour` value of the element the step points at. */
  anchor: string
  title: string
  text: string
  /**
   * The page the step lives on, as a path pattern (`:id` = any one segment); absent when its
   * element is on every page of the leaders area (the sidebar links).
   */
  route?: string
  /** Only for users who can see the Templates pages (ADMIN, ORG_ADMIN, superadmin). */
  templates?: boolean
  /** Where the popover goes first: beside the sidebar links (so it hides none), else below. */
  side?: 'right' | 'below'
}

export const TASK_EDIT_ROUTE = '/leaders/tasks/:id/edit'

export const TOUR_STEPS: readonly TourStep[] = [
  {
    anchor: 'nav-templates',
    side: 'right',
    title: 'Templates',
    text: 'Templates hold the questions your tasks ask. Open Templates to see the ones you can use.',
    templates: true,
  },
  {
    anchor: 'create-template',
    title: 'Create a template',
    text: 'Start a new template here.',
    route: '/leaders/templates',
    templates: true,
  },
  {
    anchor: 'template-form',
    title: 'The template form',
    text: 'Give the template a title and tags, choose who may use it (only you, your school or your trust) and write its questions. Once saved, it is ready for tasks.',
    route: '/leaders/templates/create',
    templates: true,
  },
  {
    anchor: 'nav-tasks',
    side: 'right',
    title: 'Tasks',
    text: 'Your tasks live here. A task is a template you fill in from your own notes, recordings and files.',
  },
  {
    anchor: 'new-task',
    title: 'New task',
    text: 'Start a task from any template you can use.',
    route: '/leaders/tasks',
  },
  {
    anchor: 'task-step-1',
    title: 'Name the task',
    text: 'Give the task a title and choose its template. Once it is created, you add its content.',
    route: '/leaders/tasks/create',
  },
  {
    anchor: 'content-voice-notes',
    title: 'Pull in voice notes',
    text: 'Bring voice notes you have already recorded into this task.',
    route: TASK_EDIT_ROUTE,
  },
  {
    anchor: 'content-upload',
    title: 'Upload files',
    text: 'Add documents, audio and video from your computer; their words are transcribed for the task. This is also where files from OneDrive or SharePoint and Teams recordings, transcribed automatically, belong once a Microsoft account is connected.',
    route: TASK_EDIT_ROUTE,
  },
  {
    anchor: 'content-photos',
    title: 'Photos of handwritten notes',
    text: 'Take photos of handwritten notes; their text is read and added to the task.',
    route: TASK_EDIT_ROUTE,
  },
  {
    anchor: 'content-record',
    title: 'Start recording',
    text: 'Record a conversation or your own thoughts straight into the task.',
    route: TASK_EDIT_ROUTE,
  },
  {
    anchor: 'content-overview',
    title: 'Your content',
    text: 'Everything you add is listed here with its progress. Tip: the more relevant content a task holds, the better the drafted answers.',
    route: TASK_EDIT_ROUTE,
  },
  {
    anchor: 'autofill',
    title: 'Autofill Response',
    text: 'Let the assistant draft the answers from your content, and use AI Formatting to tidy the wording. Read and edit them before you save.',
    route: TASK_EDIT_ROUTE,
  },
  {
    anchor: 'collaborate',
    title: 'Collaborate (Pro)',
    text: 'On Pro, share the task with colleagues at your school and fill it in together.',
    route: TASK_EDIT_ROUTE,
  },
  {
    anchor: 'save-task',
    title: 'Save the task',
    text: 'Save your work; you can come back to the task and carry on later.',
    route: TASK_EDIT_ROUTE,
  },
  {
    anchor: 'nav-report-generator',
    side: 'right',
    title: 'Report generator',
    text: 'Turn your tasks into a written report.',
  },
  {
    anchor: 'report-form',
    title: 'Write a report',
    text: 'Select the tasks, add voice notes, give your instructions, then press Generate.',
    route: '/leaders/report-generator',
  },
]

/** The steps a user sees: the Templates steps only for those who can open Templates. */
export function stepsFor(canSeeTemplates: boolean): readonly TourStep[] {
  return canSeeTemplates ? TOUR_STEPS : TOUR_STEPS.filter((step) => !step.templates)
}

/** `pathname` without a trailing slash; /leaders is the Tasks page, as /leaders/tasks. */
export function canonicalPath(pathname: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  return path === '/leaders' ? '/leaders/tasks' : path
}

/** Whether `pattern` (`:x` matching any one segment) matches `pathname`. */
export function routeMatches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/').filter(Boolean)
  const have = canonicalPath(pathname).split('/').filter(Boolean)
  return want.length === have.length && want.every((part, i) => part.startsWith(':') || part === have[i])
}

/** The address Next or Back brings the user to for `step`: its page when that is one fixed path. */
export function fixedRoute(step: TourStep | undefined): string | undefined {
  return step?.route && !step.route.includes(':') ? step.route : undefined
}
