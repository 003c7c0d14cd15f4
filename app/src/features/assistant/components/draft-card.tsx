//! A message or assignment the assistant drafted: what it is, who it is for, and 'Open in
//! editor', where the teacher checks it and sends it. The assistant never sends anything.

import { useId } from 'react'

import { Button } from '@/components/ui/button'
import type { AssistantMessageDraft } from '@/lib/assistant-notes'
import { pupilWords, usePupilWord, type PupilWords } from '@/lib/pupil-word'

/** Who the draft goes to, in words: "To the parents of: A, B", "To: A, B". */
export function draftAudience(draft: AssistantMessageDraft, word: PupilWords = pupilWords(null)): string {
  const names = draft.students.map((pupil) => pupil.name || `a ${word.one}`).join(', ')
  if (!names) return draft.sendToParent && !draft.sendToPupil ? `To parents: no ${word.many} chosen yet.` : `To: no ${word.many} chosen yet.`
  if (draft.sendToParent && draft.sendToPupil) return `To: ${names}, and their parents`
  if (draft.sendToParent) return `To the parents of: ${names}`
  return `To: ${names}`
}

export function DraftCard({ draft, onOpen }: { draft: AssistantMessageDraft; onOpen: () => void }) {
  const headingId = useId()
  const word = usePupilWord()
  const kind = draft.type === 'ASSIGNMENT' ? 'assignment' : 'message'
  return (
    <article aria-labelledby={headingId} className="space-y-2 rounded-md border border-border p-4">
      <h4 id={headingId} className="text-sm font-semibold">
        Draft {kind} ready
      </h4>
      <p className="text-sm font-medium">{draft.title || 'Untitled'}</p>
      <p className="text-sm text-muted-foreground">{draftAudience(draft, word)}</p>
      {draft.body && (
        <details className="text-sm">
          <summary className="cursor-pointer rounded-sm outline-none focus-visible:ring-3 focus-visible:ring-ring">
            Show the {kind}
          </summary>
          <p className="mt-2 whitespace-pre-wrap">{draft.body}</p>
        </details>
      )}
      <p className="text-xs text-muted-foreground">Nothing has been sent. Check it in the editor, then send it yourself.</p>
      <Button type="button" size="sm" onClick={onOpen}>
        Open in editor
      </Button>
    </article>
  )
}
