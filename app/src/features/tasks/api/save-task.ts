//! `task.save`: "Save as draft" — title, tags and the changed answers, each over the version
//! it was edited from; answers someone else changed first come back as conflicts. Saved
//! through the outbox, so an answer written offline is not lost.

import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { z } from 'zod'

import { MAX_ANSWER_CHARS, MAX_GROUP_NAME_CHARS, MAX_TITLE_CHARS } from '@/generated/limits'
import { optionalText, requiredText, tagsText } from '@/lib/form-limits'
import { outbox, useOutboxItems, type OutboxItem } from '@/lib/outbox/use-outbox'
import { invalidateRpc, type RpcInput, type RpcOutput } from '@/lib/rpc'

export type SaveResult = RpcOutput<'task.save'>
export type AnswerConflict = SaveResult['conflicts'][number]

/** Most tags on one task (`rpc/task/mod.rs`). */
export const MAX_TASK_TAGS = 20

export const taskSchema = z.object({
  title: requiredText('Enter a title.', MAX_TITLE_CHARS),
  /** The server's limits (`rpc/task/mod.rs`): 20 tags, each as long as a group name. */
  tags: tagsText(MAX_TASK_TAGS, MAX_GROUP_NAME_CHARS),
  answers: z.array(z.object({ text: optionalText(MAX_ANSWER_CHARS) })),
})

export type TaskValues = z.infer<typeof taskSchema>

/** What the page says when a save is kept on the device (no connection). */
export const KEPT = {
  title: 'Your changes are kept on this device.',
  description: 'They will be saved when Voicemark can be reached. The Outbox shows them.',
  tone: 'success' as const,
}

type SaveInput = RpcInput<'task.save'>

/** A save of this task kept on the device and refused a full write (Stuck), to offer back. */
export interface UnsentSave {
  id: string
  createdAt: number
  input: Partial<SaveInput> & { answers?: SaveInput['answers'] }
}

/** How long a save waits for an earlier one on its way before replacing it. */
const SENDING_WAIT_MS = 10_000

/** Whether `item` is a save of task `taskId`. */
function isSaveOf(item: OutboxItem, taskId: string): boolean {
  return item.job?.type === 'mutation' && item.job.path === 'task.save' && item.job.input.id === taskId
}

/**
 * Saves through the outbox (lib/outbox): on the device first, so a save made offline is sent
 * when the connection returns. A save still waiting is replaced by a newer one (which holds
 * every change since the last text the server confirmed); one already on its way is let
 * finish first (up to 10 s), so the newer save is built over what it wrote. A save sent
 * later that the server wrote only in part (a colleague changed an answer meanwhile) stays
 * Stuck with the user's text, and `stuck` offers it back on the page.
 *
 * `onSaved` hears every save of this task the server confirms, the ones the outbox sent
 * later too, so the page builds its next save over the versions they wrote.
 */
export function useSaveTask(taskId: string, title: string, onSaved: (result: SaveResult) => void) {
  const queryClient = useQueryClient()
  const items = useOutboxItems()
  const [isPending, setPending] = useState(false)
  const heard = useRef(onSaved)
  heard.current = onSaved
  useEffect(
    () =>
      outbox.onSent((item, value) => {
        if (isSaveOf(item, taskId) && value) heard.current(value as SaveResult)
      }),
    [taskId],
  )
  const stuck: UnsentSave[] = items
    .filter((item) => isSaveOf(item, taskId) && item.state === 'stuck' && item.job?.type === 'mutation')
    .map((item) => ({ id: item.id, createdAt: item.createdAt, input: (item.job as { input: UnsentSave['input'] }).input }))

  /** Sends the save `build` makes once no earlier save of this task is on its way. */
  const send = async (build: () => SaveInput): Promise<{ sent: true; result: SaveResult } | { sent: false }> => {
    setPending(true)
    try {
      for (;;) {
        const mine = outbox.list().filter((item) => isSaveOf(item, taskId))
        const sending = mine.find((item) => item.state === 'sending')
        if (sending) {
          // One that hangs is replaced, as one still waiting is.
          if (!(await outbox.whenSettled(sending.id, SENDING_WAIT_MS))) await outbox.discard(sending.id)
          continue
        }
        for (const item of mine) if (item.state === 'waiting') await outbox.discard(item.id)
        break
      }
      const outcome = await outbox.submit(
        `Task “${title}”`,
        { type: 'mutation', path: 'task.save', input: build() as unknown as Record<string, unknown>, keepIfConflicts: true },
        ['task.list'],
      )
      if (!outcome.sent) return { sent: false }
      void invalidateRpc(queryClient, 'task.list')
      return { sent: true, result: outcome.value as SaveResult }
    } finally {
      setPending(false)
    }
  }
  return { send, isPending, stuck, discard: (id: string) => outbox.discard(id) }
}
