//! The three template visibilities, as the pages name and explain them.

export type Visibility = 'PERSONAL' | 'SCHOOL' | 'MAT'

export const VISIBILITY_LABEL: Record<Visibility, string> = {
  PERSONAL: 'Personal',
  SCHOOL: 'School',
  MAT: 'Trust',
}

export const VISIBILITY_HINT: Record<Visibility, string> = {
  PERSONAL: 'Only you can see and use it.',
  SCHOOL: 'Everyone in your school can see and use it.',
  MAT: 'Everyone in every school of your trust can see and use it.',
}
