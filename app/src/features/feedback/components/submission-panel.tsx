//! The frame of the Hub's right-hand panel for one submission: "{pupil}: {assignment}", a line
//! about it (handed in, marked), the link to the pupil's profile, then the panel's content.

import type { ReactNode } from 'react'
import { Link } from 'react-router'

export function SubmissionPanel({
  headingId,
  pupil,
  studentId,
  title,
  about,
  children,
}: {
  headingId: string
  pupil: string
  studentId: string
  title: string
  about: ReactNode
  children: ReactNode
}) {
  return (
    <section aria-labelledby={headingId} className="space-y-4 rounded-lg border border-border p-4 sm:p-5">
      <div className="space-y-1">
        <h2 id={headingId} className="text-lg font-semibold">
          {pupil}: {title}
        </h2>
        <p className="text-sm text-muted-foreground">{about}</p>
        <Link to={`/students/${studentId}`} className="text-sm text-primary underline-offset-4 hover:underline">
          View {pupil}'s profile
        </Link>
      </div>
      {children}
    </section>
  )
}
