//! The first frame (issue 27 item 6, docs/performance.md "The first frame"): a page's frame,
//! heading and one-line purpose, drawn from plain HTML before the app's JavaScript has
//! arrived. A tiny script (`firstFrameScript`, inline in `index.html` by the build, allowed
//! by its hash in the Content-Security-Policy; from the service worker's cache on a repeat
//! visit) draws it into `#first-frame` while the page is still being read; the app removes
//! it in the same paint as it draws the real frame (`use-first-frame.ts`).
//!
//! On a phone on a slow connection the app's JavaScript takes two to three seconds to arrive
//! and run: the page's own heading shows in about one instead of a blank screen. The frame
//! is drawn only where the page it announces is the one the user will get: signed-in pages
//! when the server's `voicemark-signed-in` cookie says this browser holds a session, the
//! sign-in page when it does not.
//!
//! This file has no imports: the build (vite.config.ts) reads it in Node. The pages use the
//! same texts and classes (`components/page-title.tsx`, the shell, the plain layout), so the
//! frame and the page cannot drift apart.

/** The cookie the server sets beside the session cookie (readable by scripts, no secret). */
export const SIGNED_IN_COOKIE = 'voicemark-signed-in'

/** The signed-in frame's classes (app/shell/shell.tsx). */
export const SHELL_CLASSES = {
  root: 'relative flex h-dvh flex-col',
  header: 'flex h-[60px] shrink-0 items-center gap-1 border-b border-border px-2 sm:gap-2 sm:px-4',
  brand: 'flex items-center gap-2 rounded-md text-lg font-semibold text-foreground',
  body: 'flex min-h-0 flex-1',
  sidebar: 'hidden w-[300px] shrink-0 border-r border-border md:block',
  main: 'min-w-0 flex-1 overflow-y-auto px-4 py-8 outline-none sm:px-8',
} as const

/** The public pages' frame (app/layout.tsx). */
export const PLAIN_CLASSES = {
  root: 'relative flex min-h-dvh flex-col',
  header: 'flex h-[60px] shrink-0 items-center border-b border-border px-4',
  brand: SHELL_CLASSES.brand,
  main: 'flex-1 px-4 py-10 outline-none sm:px-8',
  inner: 'mx-auto max-w-2xl',
} as const

/** A page's heading row: the heading and its purpose on the left, the page's actions on the right. */
export const TITLE_CLASSES = {
  row: 'flex flex-wrap items-start justify-between gap-3',
  block: 'space-y-2',
  title: 'text-3xl font-bold tracking-tight',
  intro: 'text-muted-foreground',
} as const

/** The sign-in page's column (features/auth/components/login-page.tsx). */
export const SIGN_IN_COLUMN = 'mx-auto w-full max-w-sm space-y-6'

export interface FirstFrame {
  title: string
  intro: string
  /** Drawn when the browser holds a session (a page in the signed-in shell), or when it does not. */
  signedIn: boolean
  /** The page column's width class (the shell's `pageWidthClass`; checked by first-frame.test.ts). */
  width: string
}

/** The purpose of the product, as spec section 1 states it (the Dashboard's line). */
export const PURPOSE =
  'Use voice recognition to give learners real-time quality feedback, improve outcomes and reduce teacher workload.'

/** The pages with a first frame, by path; each page reads its heading and purpose from here. */
export const FIRST_FRAMES = {
  '/login': {
    title: 'Sign in',
    intro: 'Sign in to Voicemark with your school account.',
    signedIn: false,
    width: SIGN_IN_COLUMN,
  },
  '/': { title: 'Dashboard', intro: PURPOSE, signedIn: true, width: 'max-w-screen-2xl' },
  '/feedback': {
    title: 'Feedback Hub',
    intro: 'Work handed in and waiting for your feedback, oldest first.',
    signedIn: true,
    width: 'max-w-screen-2xl',
  },
  '/notifications': {
    title: 'Activity',
    intro: 'The messages and assignments your school has sent, newest first.',
    signedIn: true,
    width: 'max-w-screen-2xl',
  },
  '/leaders/tasks': {
    title: 'Tasks',
    intro: 'Your tasks and those shared with you, most recently changed first.',
    signedIn: true,
    width: 'max-w-screen-2xl',
  },
} as const satisfies Record<string, FirstFrame>

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** The logo and name, as the headers draw them. */
function brand(className: string, nameClass: string): string {
  return `<span class="${className}"><img src="/logo.svg" alt="" width="32" height="32" class="size-8"><span${nameClass ? ` class="${nameClass}"` : ''}>Voicemark</span></span>`
}

/** The phone's menu button, as the shell draws it (a ghost `sm` button with lucide's Menu). */
const MENU_ICON =
  '<span class="inline-flex h-8 shrink-0 items-center justify-center rounded-md px-2 md:hidden"><svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="size-5" aria-hidden="true"><path d="M4 5h16"/><path d="M4 12h16"/><path d="M4 19h16"/></svg></span>'

/** The heading row of `frame`, as `PageTitle` renders it without actions. */
export function titleHtml(frame: FirstFrame): string {
  const t = TITLE_CLASSES
  return `<div class="${t.row}"><div class="${t.block}"><h1 class="${t.title}">${escapeHtml(frame.title)}</h1><p class="${t.intro}">${escapeHtml(frame.intro)}</p></div></div>`
}

/** The whole first frame of `frame`: its page frame with the heading row in the page column. */
export function frameHtml(frame: FirstFrame): string {
  if (!frame.signedIn) {
    const p = PLAIN_CLASSES
    return `<div class="${p.root}"><header class="${p.header}">${brand(p.brand, '')}</header><main class="${p.main}"><div class="${p.inner}"><div class="${frame.width}">${titleHtml(frame)}</div></div></main></div>`
  }
  const s = SHELL_CLASSES
  return `<div class="${s.root}"><header class="${s.header}">${MENU_ICON}${brand(s.brand, 'sr-only sm:not-sr-only')}</header><div class="${s.body}"><div class="${s.sidebar}"></div><main class="${s.main}"><div class="mx-auto ${frame.width}">${titleHtml(frame)}</div></main></div></div>`
}

/**
 * The classic script that draws the frame of the page being opened into `#first-frame`, when
 * there is one for its path and the browser's session state matches (no imports, no module:
 * it runs while the page is read, before the first paint).
 */
export function firstFrameScript(): string {
  const frames: Record<string, [number, string]> = {}
  for (const [path, frame] of Object.entries(FIRST_FRAMES)) frames[path] = [frame.signedIn ? 1 : 0, frameHtml(frame)]
  return [
    '(function () {',
    `  var frames = ${JSON.stringify(frames)};`,
    "  var path = location.pathname.replace(/\\/+$/, '') || '/';",
    '  var frame = Object.prototype.hasOwnProperty.call(frames, path) ? frames[path] : null;',
    `  var signedIn = /(?:^|;\\s*)${SIGNED_IN_COOKIE}=1(?:;|$)/.test(document.cookie) ? 1 : 0;`,
    "  var into = document.getElementById('first-frame');",
    '  if (frame && into && frame[0] === signedIn) into.innerHTML = frame[1];',
    '})();',
    '',
  ].join('\n')
}
