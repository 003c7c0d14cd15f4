//! The page frame: skip link, header with the logo, and the `main` landmark.

import type { ReactNode } from 'react'
import { Link, Outlet } from 'react-router'

import { PLAIN_CLASSES } from '@/lib/first-frame'
import { useFirstFrameGone } from '@/lib/use-first-frame'

/** The frame around every page; `children` replaces the routed page (error pages). */
export function AppLayout({ children }: { children?: ReactNode }) {
  useFirstFrameGone()
  return (
    <div className={PLAIN_CLASSES.root}>
      <a
        href="#main"
        className="absolute top-2 left-2 z-50 -translate-y-[200%] rounded-md bg-primary px-4 py-2 text-primary-foreground focus:translate-y-0"
      >
        Skip to main content
      </a>
      <header className={PLAIN_CLASSES.header}>
        <Link
          to="/"
          className={PLAIN_CLASSES.brand}
        >
          <img src="/logo.svg" alt="" width={32} height={32} className="size-8" />
          <span>Voicemark</span>
        </Link>
      </header>
      <main id="main" tabIndex={-1} className={PLAIN_CLASSES.main}>
        <div className={PLAIN_CLASSES.inner}>{children ?? <Outlet />}</div>
      </main>
    </div>
  )
}
