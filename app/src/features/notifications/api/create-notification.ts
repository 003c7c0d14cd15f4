//! `notification.create`: the editor's schema (shared with `update-notification.ts`) and the
//! mutation. Saving refreshes every `notification.*` query (Activity, the view page).

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { MAX_TITLE_CHARS } from '@/generated/limits'
import type { NotificationFilters } from '@/generated/rpc-types'
import { optionalText, requiredText } from '@/lib/form-limits'
import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export type NotificationKind = 'GENERAL' | 'ASSIGNMENT'

/** The editor's fields; dates are `datetime-local` text in the viewer's zone (empty = none). */
export function notificationEditorSchema(kind: NotificationKind) {
  return z.object({
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
  })
}

export type EditorValues = z.infer<ReturnType<typeof notificationEditorSchema>>

/** The editor's fields the server may answer with a message. */
export const EDITOR_FIELDS = ['title', 'customTitle', 'body', 'sendDate', 'submissionDueDate', 'sendToPupil', 'filters'] as const

export function useCreateNotification() {
  const queryClient = useQueryClient()
  return useRpcMutation('notification.create', { onSuccess: () => invalidateRpc(queryClient, 'notification.') })
}
