//! /leaders/templates/{id}: a template's title, tags, visibility and questions in order
//! (required ones marked), with Edit and Duplicate when allowed.

import { Link, useNavigate, useParams } from 'react-router'

import { DateText } from '@/components/date-text'
import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'
import { errorCode, errorMessage } from '@/lib/rpc'

import { useDuplicateTemplate } from '../api/duplicate-template'
import { useTemplate } from '../api/get-template'
import { VISIBILITY_HINT, VISIBILITY_LABEL } from '../visibility'

export function TemplatePage() {
  const { id = '' } = useParams()
  const { toast } = useToast()
  const navigate = useNavigate()
  const template = useTemplate(id)
  const duplicate = useDuplicateTemplate()
  const data = template.data

  const onDuplicate = async () => {
    try {
      const copy = await duplicate.mutateAsync({ id })
      toast({ title: 'Template duplicated.', tone: 'success' })
      await navigate(`/leaders/templates/${copy.id}/edit`)
    } catch (error) {
      toast(failureToast(error))
    }
  }

  if (template.isPending) return <p role="status">Loading…</p>
  if (!data) {
    return (
      <div className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">Template</h1>
        <Alert>{errorCode(template.error) === 'NOT_FOUND' ? 'Template not found.' : errorMessage(template.error)}</Alert>
        <Link to="/leaders/templates" className="underline">
          Back to templates
        </Link>
      </div>
    )
  }
  return (
    <div className="max-w-3xl space-y-6">
      <div className="space-y-2">
        <Link to="/leaders/templates" className="text-sm underline-offset-4 hover:underline">
          Templates
        </Link>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-3xl font-bold tracking-tight">{data.title}</h1>
          <div className="flex gap-2">
            {data.canEdit && !data.archived && (
              <Button asChild variant="outline">
                <Link to={`/leaders/templates/${data.id}/edit`}>Edit</Link>
              </Button>
            )}
            <Button variant="outline" onClick={onDuplicate} disabled={duplicate.isPending}>
              Duplicate
            </Button>
          </div>
        </div>
      </div>
      {data.archived && <Alert tone="info">This template is archived: it cannot start new tasks.</Alert>}
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="font-medium">Visibility</dt>
        <dd>
          <Badge>{VISIBILITY_LABEL[data.visibility]}</Badge>{' '}
          <span className="text-muted-foreground">{VISIBILITY_HINT[data.visibility]}</span>
        </dd>
        <dt className="font-medium">Tags</dt>
        <dd className="flex flex-wrap gap-1">
          {data.tags.length === 0
            ? 'None'
            : data.tags.map((tag) => (
                <Badge key={tag} variant="outline">
                  {tag}
                </Badge>
              ))}
        </dd>
        <dt className="font-medium">Owner</dt>
        <dd>{data.ownerName}</dd>
        <dt className="font-medium">Updated</dt>
        <dd>
          <DateText date={data.updatedAt} withTime={false} />
        </dd>
        <dt className="font-medium">Used by</dt>
        <dd>{data.taskCount === 1 ? '1 task' : `${data.taskCount} tasks`}</dd>
      </dl>
      <Section title="Questions">
        <ol className="list-decimal space-y-3 pl-6">
          {data.questions.map((question) => (
            <li key={question.id}>
              <span className="whitespace-pre-wrap">{question.text}</span>
              {question.required && (
                <Badge variant="warning" className="ml-2">
                  Required
                </Badge>
              )}
            </li>
          ))}
        </ol>
      </Section>
    </div>
  )
}
