//! /leaders/tasks/{id}/edit: the task — title, tags, its content, the template's questions
//! with an answer each, Collaborate, "Save as draft" at any point and "Submit" once every
//! required question has an answer. Saving sends only the answers the user changed, each
//! over the version it was edited from, and never replaces what the user is typing; an
//! answer a colleague changed meanwhile is shown beside the user's for them to choose.

import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useRef, useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate, useParams } from 'react-router'

import { DateText } from '@/components/date-text'
import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input, Textarea } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'
import { errorCode, errorMessage, fieldErrors } from '@/lib/rpc'

import { useDeleteTask } from '../api/delete-task'
import { useTask, type Task } from '../api/get-task'
import { KEPT, taskSchema, useSaveTask, type AnswerConflict, type SaveResult, type TaskValues, type UnsentSave } from '../api/save-task'
import { useSubmitTask } from '../api/submit-task'
import { changedAnswers, formatTags, mergeSaved, parseTags, savedFrom, type SavedAnswers } from '../task-draft'
import { AutofillPanel } from './autofill/autofill-panel'
import { FormatAnswerButton } from './autofill/format-button'
import { CollaboratePanel } from './collaborate-panel'
import { TaskContentSection } from './content/task-content-section'

export function EditTaskPage() {
  const { id = '' } = useParams()
  const task = useTask(id)
  if (task.isError) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">Task</h1>
        <Alert>{errorCode(task.error) === 'NOT_FOUND' ? 'This task does not exist or is not shared with you.' : errorMessage(task.error)}</Alert>
        <Link to="/leaders/tasks" className="text-sm text-primary underline-offset-4 hover:underline">
          Back to tasks
        </Link>
      </div>
    )
  }
  if (!task.data) return <p role="status">Loading the task…</p>
  // Keyed by id: another task starts with a fresh form.
  return <TaskEditor key={task.data.id} task={task.data} />
}

function TaskEditor({ task }: { task: Task }) {
  const navigate = useNavigate()
  const { toast } = useToast()
  const submit = useSubmitTask()
  const remove = useDeleteTask()
  const questionIds = task.questions.map((q) => q.id)
  const saved = useRef<SavedAnswers>(savedFrom(task.answers))
  const [conflicts, setConflicts] = useState<AnswerConflict[]>([])
  const [state, setState] = useState({ title: task.title, draft: task.draft, submittedAt: task.submittedAt, updatedAt: task.updatedAt })
  const [confirmDelete, setConfirmDelete] = useState(false)
  const {
    register,
    handleSubmit,
    getValues,
    setValue,
    setError,
    clearErrors,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<TaskValues>({
    resolver: zodResolver(taskSchema),
    defaultValues: {
      title: task.title,
      tags: formatTags(task.tags),
      answers: task.questions.map((q) => ({ text: task.answers.find((a) => a.questionId === q.id)?.answer ?? '' })),
    },
  })

  /**
   * A save the server confirmed (this page's, or one the outbox sent later): its versions are
   * the base of the next save, and answers the user has not touched since show its text.
   * Conflicted answers keep the old base until the user chooses.
   */
  const merge = (result: SaveResult) => {
    const now = getValues('answers').map((a) => a.text)
    const conflicted = result.conflicts.map((c) => c.questionId)
    const merged = mergeSaved(questionIds, now, saved.current, result.answers, conflicted)
    saved.current = merged.saved
    for (const { index, text } of merged.refresh) setValue(`answers.${index}.text`, text)
    setState((s) => ({ ...s, updatedAt: result.updatedAt }))
  }
  const save = useSaveTask(task.id, task.title, merge)

  useEffect(() => {
    document.title = `${state.title} · Voicemark`
  }, [state.title])

  /**
   * Saves: 'saved', 'conflict' (some answers were not written), 'kept' (no connection: kept on
   * this device, the outbox sends it later) or 'failed'.
   */
  const saveNow = async (values: TaskValues): Promise<'saved' | 'conflict' | 'kept' | 'failed'> => {
    const texts = values.answers.map((a) => a.text)
    try {
      // Built once an earlier save on its way has finished, over the versions it wrote.
      const outcome = await save.send(() => ({
        id: task.id,
        title: values.title.trim(),
        tags: parseTags(values.tags),
        answers: changedAnswers(questionIds, texts, saved.current),
      }))
      if (!outcome.sent) return 'kept'
      const result = outcome.result
      // Merged already as the outbox confirmed it (`merge`, which reads the fields again:
      // the user may have typed while the save was on its way).
      setConflicts(result.conflicts)
      setState((s) => ({ ...s, title: values.title.trim() }))
      return result.conflicts.length === 0 ? 'saved' : 'conflict'
    } catch (error) {
      const fields = fieldErrors(error)
      let placed = false
      if (fields.title) {
        setError('title', { message: fields.title }, { shouldFocus: true })
        placed = true
      }
      if (fields.tags) {
        setError('tags', { message: fields.tags })
        placed = true
      }
      placed = placeAnswerErrors(fields) || placed
      if (!placed) toast(failureToast(error))
      return 'failed'
    }
  }

  const placeAnswerErrors = (fields: Record<string, string>): boolean => {
    let placed = false
    questionIds.forEach((questionId, index) => {
      const message = fields[`answers.${questionId}`]
      if (message) {
        setError(`answers.${index}.text`, { message }, { shouldFocus: !placed })
        placed = true
      }
    })
    return placed
  }

  const onSave = handleSubmit(async (values) => {
    const outcome = await saveNow(values)
    if (outcome === 'saved') toast({ title: 'Draft saved.', tone: 'success' })
    else if (outcome === 'kept') toast(KEPT)
    else if (outcome === 'conflict')
      toast({ title: 'Some answers were not saved', description: 'A colleague changed them while you were editing.', tone: 'error' })
  })

  const onSubmit = handleSubmit(async (values) => {
    const saving = await saveNow(values)
    if (saving === 'kept') toast({ ...KEPT, description: `${KEPT.description} Submit once it is saved.` })
    if (saving !== 'saved') return
    try {
      const result = await submit.mutateAsync({ id: task.id })
      setState((s) => ({ ...s, draft: false, submittedAt: result.submittedAt }))
      toast({ title: 'Task submitted.', tone: 'success' })
    } catch (error) {
      if (!placeAnswerErrors(fieldErrors(error))) toast(failureToast(error))
    }
  })

  const takeTheirs = (conflict: AnswerConflict) => {
    const index = questionIds.indexOf(conflict.questionId)
    saved.current = { ...saved.current, [conflict.questionId]: { text: conflict.theirAnswer, version: conflict.theirVersion } }
    if (index >= 0) setValue(`answers.${index}.text`, conflict.theirAnswer)
    setConflicts((all) => all.filter((c) => c.questionId !== conflict.questionId))
  }

  const keepMine = async (conflict: AnswerConflict) => {
    // Their version becomes the base, so the next save writes the user's text over it.
    saved.current = { ...saved.current, [conflict.questionId]: { text: conflict.theirAnswer, version: conflict.theirVersion } }
    setConflicts((all) => all.filter((c) => c.questionId !== conflict.questionId))
    if ((await saveNow(getValues())) === 'saved') toast({ title: 'Your answer was saved.', tone: 'success' })
  }

  const onDelete = async () => {
    try {
      await remove.mutateAsync({ id: task.id })
      toast({ title: 'Task deleted.', tone: 'success' })
      navigate('/leaders/tasks')
    } catch (error) {
      toast(failureToast(error))
    }
  }

  const busy = isSubmitting || save.isPending || submit.isPending

  // Changes kept on this device that the server has not taken (Stuck: someone else changed an
  // answer while they waited), offered back to the form.
  const putBack = async (item: UnsentSave) => {
    const input = item.input
    if (typeof input.title === 'string') setValue('title', input.title, { shouldDirty: true })
    if (Array.isArray(input.tags)) setValue('tags', formatTags(input.tags as string[]), { shouldDirty: true })
    for (const answer of input.answers ?? []) {
      const index = questionIds.indexOf(answer.questionId)
      if (index >= 0) setValue(`answers.${index}.text`, answer.answer, { shouldDirty: true })
    }
    await save.discard(item.id)
    toast({ title: 'Your changes are back in the form.', description: 'Check them, then save.', tone: 'success' })
  }
  const answers = watch('answers')
  // An AI text replaces the answer in the form only; the user reviews it and saves.
  const putAnswer = (index: number, text: string) => {
    setValue(`answers.${index}.text`, text, { shouldDirty: true })
    clearErrors(`answers.${index}.text`)
  }

  return (
    <div className="space-y-6">
      <div>
        <Link to="/leaders/tasks" className="text-sm text-primary underline-offset-4 hover:underline">
          Back to tasks
        </Link>
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold">{state.title}</h1>
          {state.draft ? <Badge variant="warning">Draft</Badge> : <Badge variant="success">Submitted</Badge>}
        </div>
        <p className="mt-1 text-sm text-muted-foreground">
          Template: {task.template.title}. Last saved <DateText date={state.updatedAt} withTime={false} />
          {state.submittedAt && (
            <>
              ; submitted <DateText date={state.submittedAt} withTime={false} />
            </>
          )}
          .
        </p>
      </div>

      {save.stuck.map((item) => (
        <Alert key={item.id} tone="info">
          <p>
            Changes you made on <DateText date={new Date(item.createdAt)} withTime /> waited on this device and were not
            all saved: someone else changed some of the same answers meanwhile.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button type="button" size="sm" onClick={() => void putBack(item)}>
              Put my changes back in the form
            </Button>
            <Button type="button" size="sm" variant="outline" onClick={() => void save.discard(item.id)}>
              Discard them
            </Button>
          </div>
        </Alert>
      ))}
      <form onSubmit={onSave} noValidate className="space-y-6" aria-label="Task">
        <Section title="Details">
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Title" error={errors.title?.message}>
              <Input {...register('title')} autoComplete="off" />
            </FormField>
            <FormField label="Tags" hint="Separate tags with commas." error={errors.tags?.message}>
              <Input {...register('tags')} autoComplete="off" />
            </FormField>
          </div>
        </Section>

        <TaskContentSection taskId={task.id} />

        <Section title="Questions">
          {task.questions.length > 0 && (
            <AutofillPanel
              taskId={task.id}
              questions={task.questions}
              onAnswer={(questionId, text) => {
                const index = questionIds.indexOf(questionId)
                if (index >= 0) putAnswer(index, text)
              }}
            />
          )}
          {task.questions.length === 0 ? (
            <p className="text-sm text-muted-foreground">This template has no questions.</p>
          ) : (
            <div className="space-y-6">
              {task.questions.map((question, index) => {
                const conflict = conflicts.find((c) => c.questionId === question.id)
                return (
                  <div key={question.id} className="space-y-2">
                    <FormField
                      label={question.required ? `${question.text} (required)` : question.text}
                      error={errors.answers?.[index]?.text?.message}
                    >
                      <Textarea
                        rows={5}
                        {...register(`answers.${index}.text`, { onChange: () => clearErrors(`answers.${index}.text`) })}
                      />
                    </FormField>
                    <FormatAnswerButton
                      taskId={task.id}
                      questionId={question.id}
                      text={answers?.[index]?.text ?? ''}
                      onFormatted={(text) => putAnswer(index, text)}
                    />
                    {conflict && <ConflictNotice conflict={conflict} onTheirs={() => takeTheirs(conflict)} onMine={() => keepMine(conflict)} busy={busy} />}
                  </div>
                )
              })}
            </div>
          )}
        </Section>

        <div className="flex flex-wrap gap-3">
          <Button type="submit" variant="outline" disabled={busy} data-tour="save-task">
            Save as draft
          </Button>
          <Button type="button" disabled={busy} onClick={onSubmit}>
            Submit
          </Button>
        </div>
      </form>

      <CollaboratePanel task={task} />

      {task.access === 'OWNER' && (
        <Section title="Delete">
          <p className="text-sm text-muted-foreground">Deleting removes the task, its answers and its content for everyone.</p>
          <Button type="button" variant="outline" className="text-destructive" onClick={() => setConfirmDelete(true)}>
            Delete task
          </Button>
          <Dialog open={confirmDelete} onOpenChange={setConfirmDelete}>
            <DialogContent>
              <DialogTitle className="text-lg font-semibold">Delete this task?</DialogTitle>
              <DialogDescription className="mt-2 text-sm text-muted-foreground">
                “{task.title}” and its answers will be deleted. This cannot be undone.
              </DialogDescription>
              <div className="mt-6 flex justify-end gap-3">
                <DialogClose asChild>
                  <Button variant="outline">Cancel</Button>
                </DialogClose>
                <Button onClick={onDelete} disabled={remove.isPending}>
                  Delete task
                </Button>
              </div>
            </DialogContent>
          </Dialog>
        </Section>
      )}
    </div>
  )
}

function ConflictNotice({
  conflict,
  onTheirs,
  onMine,
  busy,
}: {
  conflict: AnswerConflict
  onTheirs(): void
  onMine(): void
  busy: boolean
}) {
  return (
    <div role="alert" className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="font-medium">{conflict.updatedByName ?? 'A colleague'} changed this answer while you were editing.</p>
      <div>
        <p className="text-xs font-medium">Their version</p>
        <blockquote className="mt-1 border-l-2 border-amber-400 pl-3 whitespace-pre-wrap">{conflict.theirAnswer || '(empty)'}</blockquote>
      </div>
      <p>Your text is still in the box above and has not been saved.</p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" size="sm" variant="outline" onClick={onTheirs} disabled={busy}>
          Use their version
        </Button>
        <Button type="button" size="sm" onClick={onMine} disabled={busy}>
          Keep mine
        </Button>
      </div>
    </div>
  )
}
