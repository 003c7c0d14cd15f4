//! `/leaders/report-generator`: choose tasks and voice notes, give instructions and a
//! title, Generate: the report streams into an editable text box with progress shown
//! (long inputs are summarised task by task first). Save keeps it; once saved it downloads
//! as a Word document or a PDF. "Saved reports" below opens or deletes earlier ones.

import { useRef, useState } from 'react'
import { useForm, type Path } from 'react-hook-form'
import type { z } from 'zod'

import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Textarea } from '@/components/ui/input'
import { Progress } from '@/components/ui/progress'
import { useToast } from '@/components/ui/toaster'
import { FeatureOff } from '@/components/feature-off'
import { useFeatures } from '@/lib/features'
import { failureToast, setServerErrors } from '@/lib/form-errors'

import { downloadUrl } from '../api/download-report'
import { GenerateError, generateReport } from '../api/generate-report'
import { fetchReport } from '../api/get-report'
import { generateSchema, saveSchema, useSaveReport, type ReportValues } from '../api/save-report'
import { SavedReports } from './saved-reports'
import { TaskPicker } from './task-picker'
import { VoiceNotePicker } from './voice-note-picker'

const EMPTY: ReportValues = { title: '', instructions: '', taskIds: [], voiceNoteIds: [], body: '' }
const FIELDS: Path<ReportValues>[] = ['title', 'instructions', 'taskIds', 'voiceNoteIds', 'body']

interface Progressing {
  step: number
  of: number
  label: string
}

export function ReportGeneratorPage() {
  const { toast } = useToast()
  // Without a chat model the page says so before any work starts, and Generate is disabled.
  const writingOff = useFeatures().data?.chat === false
  const save = useSaveReport()
  const form = useForm<ReportValues>({ defaultValues: EMPTY })
  const { register, setValue, watch, setError, clearErrors, reset, getValues, formState } = form
  const { errors } = formState
  const [savedId, setSavedId] = useState<string | null>(null)
  const [savedBody, setSavedBody] = useState<string | null>(null)
  const [progress, setProgress] = useState<Progressing | null>(null)
  const [generating, setGenerating] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const abort = useRef<AbortController | null>(null)
  const bodyRef = useRef<HTMLTextAreaElement | null>(null)

  const taskIds = watch('taskIds')
  const voiceNoteIds = watch('voiceNoteIds')
  const body = watch('body')
  const unsaved = savedId !== null && savedBody !== body

  /** Puts each zod issue on its field; `true` when the values passed. */
  const validate = (schema: z.ZodType<ReportValues>): boolean => {
    clearErrors()
    const result = schema.safeParse(getValues())
    if (result.success) return true
    let first = true
    for (const issue of result.error.issues) {
      const field = issue.path[0] as Path<ReportValues>
      setError(field, { message: issue.message }, { shouldFocus: first })
      first = false
    }
    return false
  }

  const onGenerate = async () => {
    if (generating || writingOff || !validate(generateSchema)) return
    const values = getValues()
    const controller = new AbortController()
    abort.current = controller
    setGenerating(true)
    setFailure(null)
    setProgress({ step: 0, of: 1, label: 'Starting…' })
    setValue('body', '')
    let text = ''
    try {
      await generateReport(
        { taskIds: values.taskIds, voiceNoteIds: values.voiceNoteIds, instructions: values.instructions, title: values.title },
        (event) => {
          if (event.type === 'progress') setProgress(event)
          else if (event.type === 'text') {
            text += event.delta
            setValue('body', text)
          } else if (event.type === 'error') setFailure(event.message)
          else setProgress(null)
        },
        controller.signal,
      )
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') {
        setFailure('Stopped. The text written so far is kept.')
      } else if (error instanceof GenerateError) {
        let shown = false
        for (const [field, message] of Object.entries(error.fieldErrors)) {
          if (FIELDS.includes(field as Path<ReportValues>)) {
            setError(field as Path<ReportValues>, { message }, { shouldFocus: !shown })
            shown = true
          }
        }
        if (!shown) setFailure(error.message)
      } else {
        setFailure('The connection was lost while the report was being written. Please try again.')
      }
    } finally {
      setGenerating(false)
      setProgress(null)
      abort.current = null
      bodyRef.current?.focus()
    }
  }

  const onSave = async () => {
    if (!validate(saveSchema)) return
    const values = getValues()
    try {
      const { id } = await save.mutateAsync({ ...values, id: savedId ?? undefined })
      setSavedId(id)
      setSavedBody(values.body)
      toast({ title: 'Report saved.', tone: 'success' })
    } catch (error) {
      if (!setServerErrors(error, setError, FIELDS)) toast(failureToast(error))
    }
  }

  const onOpen = async (id: string) => {
    try {
      const report = await fetchReport(id)
      reset({
        title: report.title,
        instructions: report.instructions,
        taskIds: report.taskIds,
        voiceNoteIds: report.voiceNoteIds,
        body: report.body,
      })
      setSavedId(report.id)
      setSavedBody(report.body)
      setFailure(null)
      bodyRef.current?.focus()
    } catch (error) {
      toast(failureToast(error))
    }
  }

  const startNew = () => {
    reset(EMPTY)
    setSavedId(null)
    setSavedBody(null)
    setFailure(null)
  }

  const { ref: bodyRegisterRef, ...bodyField } = register('body')

  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Report generator</h1>
        <p className="text-muted-foreground">
          Choose tasks and voice notes, say what the report should cover, and the AI writes it for you to edit, save and
          download.
        </p>
      </div>
      {writingOff && <FeatureOff capability="reports" />}
      <form
        data-tour="report-form"
        aria-label="Report"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          void onGenerate()
        }}
        className="space-y-6"
      >
        <Section title="Sources">
          <TaskPicker
            selected={taskIds}
            onChange={(ids) => setValue('taskIds', ids, { shouldDirty: true })}
            error={errors.taskIds?.message}
          />
          <VoiceNotePicker
            selected={voiceNoteIds}
            onChange={(ids) => setValue('voiceNoteIds', ids, { shouldDirty: true })}
            error={errors.voiceNoteIds?.message}
          />
        </Section>
        <Section title="What to write">
          <FormField
            label="Instructions"
            hint="What the report is for and what it should cover, e.g. “A summary for governors of this term’s learning walks, with strengths and next steps.”"
            error={errors.instructions?.message}
          >
            <Textarea rows={4} {...register('instructions')} />
          </FormField>
          <FormField label="Title" error={errors.title?.message}>
            <Input autoComplete="off" {...register('title')} />
          </FormField>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={generating || writingOff}>
              {generating ? 'Generating…' : 'Generate'}
            </Button>
            {generating && (
              <Button type="button" variant="outline" onClick={() => abort.current?.abort()}>
                Stop
              </Button>
            )}
          </div>
        </Section>
        <Section title="Report">
          <div aria-live="polite" role="status" className="space-y-2">
            {progress && (
              <>
                <p className="text-sm">
                  {progress.label}
                  {progress.of > 1 && progress.step > 0 ? ` (step ${progress.step} of ${progress.of})` : ''}
                </p>
                <Progress
                  label="Report progress"
                  value={progress.of > 0 ? (Math.max(progress.step - 1, 0) / progress.of) * 100 : 0}
                />
              </>
            )}
          </div>
          {failure && <Alert>{failure}</Alert>}
          <FormField
            label="Report text"
            hint="Markdown: # for headings, - for bullet points. Edit freely before saving."
            error={errors.body?.message}
          >
            <Textarea
              rows={18}
              className="font-mono"
              readOnly={generating}
              aria-busy={generating}
              {...bodyField}
              ref={(element) => {
                bodyRegisterRef(element)
                bodyRef.current = element
              }}
            />
          </FormField>
          <div className="flex flex-wrap items-center gap-2">
            <Button type="button" onClick={() => void onSave()} disabled={generating || save.isPending}>
              {savedId ? 'Save changes' : 'Save'}
            </Button>
            {savedId && (
              <>
                <Button asChild variant="outline">
                  <a href={downloadUrl(savedId, 'docx')} download>
                    Download Word
                  </a>
                </Button>
                <Button asChild variant="outline">
                  <a href={downloadUrl(savedId, 'pdf')} download>
                    Download PDF
                  </a>
                </Button>
              </>
            )}
            <Button type="button" variant="ghost" onClick={startNew} disabled={generating}>
              New report
            </Button>
          </div>
          {unsaved && <p className="text-sm text-muted-foreground">You have unsaved changes: save to download them.</p>}
        </Section>
      </form>
      <SavedReports onOpen={(id) => void onOpen(id)} onDeleted={(id) => id === savedId && startNew()} />
    </div>
  )
}
