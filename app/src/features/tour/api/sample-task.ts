//! The task the tour's steps about a task's page (7-14) point into when the user reaches
//! them from the still-empty New task form: a sample task made from the first template they
//! may use (deleted again when the tour leaves those steps or ends), or, when none can be
//! made (no template, the Basic weekly limit), their latest task, opened and left as it is.

import { rpcMutation, rpcQuery } from '@/lib/rpc'

/** The title of the sample task, so a user who sees it in a list knows what it is. */
export const SAMPLE_TASK_TITLE = 'Sample task from the tour'

export interface SampleTask {
  id: string
  /** Made by the tour (and so deleted by it), rather than one of the user's own. */
  created: boolean
}

/** A task to show the task steps on, or `null` when there is none. */
export async function openSampleTask(): Promise<SampleTask | null> {
  try {
    const templates = await rpcQuery('task.templateChoices')
    if (templates.length > 0) {
      const { id } = await rpcMutation('task.create', { title: SAMPLE_TASK_TITLE, templateId: templates[0].id })
      return { id, created: true }
    }
  } catch {
    // Refused (e.g. the weekly limit): an existing task does as well.
  }
  try {
    const [latest] = (await rpcQuery('task.list', {})).tasks
    return latest ? { id: latest.id, created: false } : null
  } catch {
    return null
  }
}

/** Deletes the sample task when the tour made it; a failure leaves it (the user may delete it). */
export async function removeSampleTask(sample: SampleTask | null): Promise<void> {
  if (!sample?.created) return
  await rpcMutation('task.delete', { id: sample.id }).catch(() => undefined)
}
