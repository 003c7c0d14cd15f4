//! A page's heading row: the heading and a one-line purpose, with the page's actions on the
//! right. Pages with a first frame pass their entry of `FIRST_FRAMES`, so the frame drawn
//! before the app runs (lib/first-frame.ts) and the page read the same.

import type { ReactNode } from 'react'

import { TITLE_CLASSES } from '@/lib/first-frame'

export function PageTitle({ title, intro, children }: { title: string; intro: string; children?: ReactNode }) {
  return (
    <div className={TITLE_CLASSES.row}>
      <div className={TITLE_CLASSES.block}>
        <h1 className={TITLE_CLASSES.title}>{title}</h1>
        <p className={TITLE_CLASSES.intro}>{intro}</p>
      </div>
      {children && <div className="flex flex-wrap gap-2">{children}</div>}
    </div>
  )
}
