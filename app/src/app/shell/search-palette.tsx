//! The quick-action palette (mod+K): actions and the Pupil Profiles group, on cmdk inside a
//! Radix Dialog. Loaded on first open (React.lazy), so cmdk stays out of the initial bundle.
//! Items rank by word starts (`palette-ranking.ts`), and a user kept in the leaders area is
//! offered nothing outside it (no New message, no pupil profiles: both would bounce).

import { Command } from 'cmdk'
import { Camera, Mic, PenSquare, UserRound } from 'lucide-react'
import type { ReactNode } from 'react'
import { useNavigate } from 'react-router'

import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import type { StudentSummary } from '@/generated/rpc-types'
import { usePhotoAnalyser, useVoiceNoteRecorder } from '@/lib/capture'
import { useRpcQuery } from '@/lib/rpc'
import { useSession } from '@/lib/session'
import { usePupilWord } from '@/lib/pupil-word'

import { forcedIntoLeaders } from './navigation'
import { paletteFilter } from './palette-ranking'

const itemClass =
  'flex cursor-pointer items-center justify-between gap-3 rounded-md px-3 py-2 text-sm data-[selected=true]:bg-muted'

/** "Year 7 · 7A", or what of it is known. */
export function studentGroups(student: Pick<StudentSummary, 'yearGroup' | 'formGroup'>): string {
  return [student.yearGroup?.name, student.formGroup?.name].filter(Boolean).join(' · ')
}

function ActionLabel({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <span className="flex items-center gap-3 text-foreground">
      {icon}
      {children}
    </span>
  )
}

export default function SearchPalette({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const navigate = useNavigate()
  const { openRecorder } = useVoiceNoteRecorder()
  const photoAnalyser = usePhotoAnalyser()
  const { status, session } = useSession()
  const word = usePupilWord()
  // The pupil area's pages send a user kept in the leaders area back to /leaders/tasks.
  const pupilArea = !!session && !forcedIntoLeaders(session.user)
  const students = useRpcQuery('school.listStudents', undefined, {
    enabled: open && status === 'authenticated' && pupilArea,
    staleTime: 60_000,
  })

  const run = (action: () => void) => {
    onOpenChange(false)
    action()
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="top-[15%] max-w-xl translate-y-0 overflow-hidden p-0">
        <DialogTitle className="sr-only">Search</DialogTitle>
        <DialogDescription className="sr-only">Search for actions and {word.many}</DialogDescription>
        <Command label="Search" filter={paletteFilter} className="flex max-h-[min(650px,80dvh)] flex-col">
          {/* shrink-0: a long list must not squeeze the input (it fell to 17 px). */}
          <Command.Input
            placeholder="Search..."
            aria-label="Search"
            className="h-12 w-full shrink-0 border-b border-border bg-background px-4 text-sm outline-none"
          />
          <Command.List className="min-h-0 overflow-y-auto p-2">
            <Command.Empty className="px-3 py-6 text-center text-sm text-muted-foreground">
              Nothing found...
            </Command.Empty>
            <Command.Group heading="Actions" className="text-xs text-muted-foreground [&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5">
              {pupilArea && (
                <Command.Item className={itemClass} onSelect={() => run(() => navigate('/notifications/create'))}>
                  <ActionLabel icon={<PenSquare aria-hidden="true" className="size-4" />}>New message</ActionLabel>
                </Command.Item>
              )}
              <Command.Item className={itemClass} onSelect={() => run(openRecorder)}>
                <ActionLabel icon={<Mic aria-hidden="true" className="size-4" />}>New voice note</ActionLabel>
              </Command.Item>
              <Command.Item className={itemClass} onSelect={() => run(() => photoAnalyser.open())}>
                <ActionLabel icon={<Camera aria-hidden="true" className="size-4" />}>New photo</ActionLabel>
              </Command.Item>
            </Command.Group>
            {pupilArea && students.data && students.data.length > 0 && (
              <Command.Group heading={`${word.One} Profiles`} className="text-xs text-muted-foreground [&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5">
                {students.data.map((student) => {
                  const name = `${student.forename} ${student.surname}`
                  const groups = studentGroups(student)
                  return (
                    <Command.Item
                      key={student.id}
                      // The id keeps two pupils of one name apart; the ranking reads the keywords.
                      value={`${name} ${student.id}`}
                      keywords={[name, student.yearGroup?.name ?? '', student.formGroup?.name ?? '']}
                      className={itemClass}
                      onSelect={() => run(() => navigate(`/students/${encodeURIComponent(student.id)}`))}
                    >
                      <ActionLabel icon={<UserRound aria-hidden="true" className="size-4 text-muted-foreground" />}>
                        <span className="text-foreground">{name}</span>
                      </ActionLabel>
                      {groups && <span className="text-xs text-muted-foreground">{groups}</span>}
                    </Command.Item>
                  )
                })}
              </Command.Group>
            )}
          </Command.List>
        </Command>
      </DialogContent>
    </Dialog>
  )
}
