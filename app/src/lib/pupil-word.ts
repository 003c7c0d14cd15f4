//! The word for the people an organisation teaches: a SCHOOL has "pupils", a BUSINESS has
//! "learners" (docs/organisations.md). Every page that shows the word takes it from here,
//! from the session's organisation type, so a business never reads "pupils".

import { useSession } from './session'

export interface PupilWords {
  /** "pupil" / "learner" */
  one: string
  /** "pupils" / "learners" */
  many: string
  /** "Pupil" / "Learner", at the start of a sentence or in a label */
  One: string
  /** "Pupils" / "Learners" */
  Many: string
}

const SCHOOL: PupilWords = { one: 'pupil', many: 'pupils', One: 'Pupil', Many: 'Pupils' }
const BUSINESS: PupilWords = { one: 'learner', many: 'learners', One: 'Learner', Many: 'Learners' }

/** The words for an organisation of `orgType` (a school's when unknown). */
export function pupilWords(orgType: string | null | undefined): PupilWords {
  return orgType === 'BUSINESS' ? BUSINESS : SCHOOL
}

/** The words for the organisation the session acts in. */
export function usePupilWord(): PupilWords {
  const { session } = useSession()
  return pupilWords(session?.user.orgType)
}
