//! /leaders/templates/create and /leaders/templates/{id}/edit: the template form under its
//! heading. Editing loads the template first; one the user may not edit says so.

import { Link, useParams } from 'react-router'

import { Alert } from '@/components/ui/alert'
import { errorCode, errorMessage } from '@/lib/rpc'

import { useTemplate } from '../api/get-template'
import { EMPTY_TEMPLATE, TemplateForm } from './template-form'

export function CreateTemplatePage() {
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-3xl font-bold tracking-tight">Create template</h1>
      <TemplateForm id={null} defaults={EMPTY_TEMPLATE} />
    </div>
  )
}

export function EditTemplatePage() {
  const { id = '' } = useParams()
  const template = useTemplate(id)
  const data = template.data
  return (
    <div className="max-w-3xl space-y-6">
      <h1 className="text-3xl font-bold tracking-tight">Edit template</h1>
      {template.isPending && <p role="status">Loading…</p>}
      {template.isError && (
        <Alert>{errorCode(template.error) === 'NOT_FOUND' ? 'Template not found.' : errorMessage(template.error)}</Alert>
      )}
      {data && !data.canEdit && (
        <Alert tone="info">
          You cannot edit this template. You can <Link to={`/leaders/templates/${data.id}`}>view it</Link> and duplicate it
          to make your own copy.
        </Alert>
      )}
      {data?.canEdit && (
        <TemplateForm
          key={data.id}
          id={data.id}
          defaults={{
            title: data.title,
            tags: data.tags.join(', '),
            visibility: data.visibility,
            questions: data.questions.map((q) => ({ questionId: q.id, text: q.text, required: q.required })),
          }}
        />
      )}
    </div>
  )
}
