//! `template.save`: create (no id) or edit a template with its questions in order. The
//! form's schema mirrors the server's limits (docs/leaders.md, "Templates").

import { useQueryClient } from '@tanstack/react-query'
import { z } from 'zod'

import { fitsChars, MAX_QUESTION_CHARS, MAX_TEMPLATE_TAG_CHARS, MAX_TITLE_CHARS, tagTooLongMessage, tooLongMessage } from '@/generated/limits'
import type { RpcInput } from '@/lib/rpc'
import { invalidateRpc, useRpcMutation } from '@/lib/rpc'

export const MAX_QUESTIONS = 50
export { MAX_QUESTION_CHARS }
export const MAX_TAGS = 10
export const MAX_TAG_CHARS = MAX_TEMPLATE_TAG_CHARS

/** The tags typed as one comma-separated text: trimmed, blanks and repeats dropped. */
export function parseTags(text: string): string[] {
  const seen = new Set<string>()
  const tags: string[] = []
  for (const raw of text.split(',')) {
    const tag = raw.trim()
    if (!tag || seen.has(tag.toLowerCase())) continue
    seen.add(tag.toLowerCase())
    tags.push(tag)
  }
  return tags
}

export const VISIBILITIES = ['PERSONAL', 'SCHOOL', 'MAT'] as const

export const templateSchema = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'Enter a title.')
    .refine((v) => fitsChars(v, MAX_TITLE_CHARS), tooLongMessage(MAX_TITLE_CHARS)),
  tags: z
    .string()
    .refine((v) => parseTags(v).length <= MAX_TAGS, `Use at most ${MAX_TAGS} tags.`)
    .refine(
      (v) => parseTags(v).every((t) => fitsChars(t, MAX_TAG_CHARS)),
      tagTooLongMessage(MAX_TAG_CHARS),
    ),
  visibility: z.enum(VISIBILITIES),
  questions: z
    .array(
      z.object({
        questionId: z.string().nullable(),
        text: z
          .string()
          .trim()
          .min(1, 'Enter the question.')
          .refine((v) => fitsChars(v, MAX_QUESTION_CHARS), tooLongMessage(MAX_QUESTION_CHARS)),
        required: z.boolean(),
      }),
    )
    .min(1, 'Add at least one question.')
    .max(MAX_QUESTIONS, `Use at most ${MAX_QUESTIONS} questions.`),
})

export type TemplateValues = z.infer<typeof templateSchema>

/** The form's values as `template.save` takes them. */
export function toSaveInput(id: string | null, values: TemplateValues): RpcInput<'template.save'> {
  return {
    id,
    title: values.title.trim(),
    tags: parseTags(values.tags),
    visibility: values.visibility,
    questions: values.questions.map((q) => ({ id: q.questionId, text: q.text.trim(), required: q.required })),
  }
}

/** A server field (`questions[2].text`) as the form names it (`questions.2.text`). */
export function formField(serverField: string): string {
  return serverField.replace(/\[(\d+)\]/g, '.$1')
}

export function useSaveTemplate() {
  const queryClient = useQueryClient()
  return useRpcMutation('template.save', { onSuccess: () => invalidateRpc(queryClient, 'template.') })
}
