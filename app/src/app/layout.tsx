//! The page frame: skip link, header with the logo, and the `main` landmark.

import type { ReactNode } from 'react'
import { Link, Outlet } from 'react-router'

/** The frame around every page; `children` replaces the routed page (error pages). */
export function AppLayout({ children }: { children?: ReactNode }) {
  return (
    <div className="relative flex min-h-dvh flex-col">
      <a
        href="#main"
        className="absolute top-2 left-2 z-50 -translate-y-[200%] rounded-md bg-primary px-4 py-2 text-primary-foreground focus:translate-y-0"
      >
        Skip to main content
      </a>
      <header className="flex h-[60px] shrink-0 items-center border-b border-border px-4">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md text-lg font-semibold text-foreground"
        >
          <img src="/logo.svg" alt="" width={32} height={32} className="size-8" />
          <span>Voicemark</span>
        </Link>
      </header>
      <main id="main" tabIndex={-1} className="flex-1 px-4 py-10 outline-none sm:px-8">
        <div className="mx-auto max-w-2xl">{children ?? <Outlet />}</div>
      </main>
    </div>
  )
}
