//! `notification.create`: the editor's schema (shared with `update-notification.ts`) and the
//! creation. Saving refreshes every `notification.*` query (Activity, the view page).

import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { z } from 'zod'

import { MAX_TITLE_CHARS } from '@/generated/limits'
import type { NotificationFilters } from '@/generated/rpc-types'
import { optionalText, requiredText } from '@/lib/form-limits'
import { outbox } from '@/lib/outbox/outbox'
import { invalidateRpc, type RpcInput, type RpcOutput } from '@/lib/rpc'

export type NotificationKind = 'GENERAL' | 'ASSIGNMENT'

/** The editor's fields; dates are `datetime-local` text in the viewer's zone (empty = none). */
export function notificationEditorSchema(kind: NotificationKind) {
  return z
    .object({
    title: requiredText('Enter a title.', MAX_TITLE_CHARS),
    customTitle: optionalText(MAX_TITLE_CHARS),
    body: z.string(),
    /** Empty = send now. */
    sendDate: z.string(),
    submissionDueDate: kind === 'ASSIGNMENT' ? z.string().min(1, 'Choose a due date.') : z.string(),
    sendToPupil: z.boolean(),
    sendToParent: z.boolean(),
    // Checkbox groups as react-hook-form gives them; the server checks the ids.
    filters: z.custom<NotificationFilters>(),
    /** Assignments: 'Feedback release' (docs/feedback-release.md). */
    feedbackRelease: z.enum(['WHEN_MARKED', 'ON_DATE', 'BY_HAND']),
    /** With ON_DATE: `datetime-local` text. */
    feedbackReleaseAt: z.string(),
    /** The stored release date of an edited notification (it may have passed). */
    storedReleaseAt: z.string(),
  })
    .superRefine((values, ctx) => {
      if (kind !== 'ASSIGNMENT' || values.feedbackRelease !== 'ON_DATE') return
      if (!values.feedbackReleaseAt) {
        ctx.addIssue({ code: 'custom', path: ['feedbackReleaseAt'], message: 'Choose when the feedback is released.' })
      } else if (values.feedbackReleaseAt !== values.storedReleaseAt && new Date(values.feedbackReleaseAt).getTime() <= Date.now()) {
        ctx.addIssue({ code: 'custom', path: ['feedbackReleaseAt'], message: 'The release date must be in the future.' })
      }
    })
}

export type EditorValues = z.infer<ReturnType<typeof notificationEditorSchema>>

/** The editor's fields the server may answer with a message. */
export const EDITOR_FIELDS = ['title', 'customTitle', 'body', 'sendDate', 'submissionDueDate', 'sendToPupil', 'filters', 'feedbackRelease', 'feedbackReleaseAt'] as const

/**
 * Creates a message or assignment through the outbox (lib/outbox): kept on the device first,
 * so one written while the connection is down is sent when it returns. Resolves with the
 * server's answer, or `null` when it waits on the device; a refusal is thrown.
 */
export function useCreateNotification() {
  const queryClient = useQueryClient()
  return useCallback(
    async (input: RpcInput<'notification.create'>): Promise<RpcOutput<'notification.create'> | null> => {
      const kind = input.type === 'ASSIGNMENT' ? 'Assignment' : 'Message'
      const outcome = await outbox.submit(
        `${kind} ${input.title}`,
        { type: 'mutation', path: 'notification.create', input: input as unknown as Record<string, unknown> },
        ['notification.', 'dashboard.'],
      )
      if (!outcome.sent) return null
      void invalidateRpc(queryClient, 'notification.')
      return outcome.value as RpcOutput<'notification.create'>
    },
    [queryClient],
  )
}
