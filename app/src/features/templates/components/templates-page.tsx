//! /leaders/templates: the templates the user can see, with a search (title or tag), a
//! visibility filter and the archived ones on request; each row links to its page and offers
//! Edit, Duplicate and Delete (Archive when tasks use it) or Restore.

import { LayoutTemplate, Plus } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'

import { Cell, DataTable } from '@/components/data-table'
import { DateText } from '@/components/date-text'
import { EmptyState } from '@/components/empty-state'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'

import { useDuplicateTemplate } from '../api/duplicate-template'
import { useTemplates } from '../api/list-templates'
import { useRestoreTemplate } from '../api/restore-template'
import { VISIBILITY_LABEL, type Visibility } from '../visibility'
import { DeleteTemplateDialog, type TemplateToDelete } from './delete-template-dialog'

export function TemplatesPage() {
  const { toast } = useToast()
  const navigate = useNavigate()
  const [search, setSearch] = useState('')
  const [visibility, setVisibility] = useState<Visibility | ''>('')
  const [archived, setArchived] = useState(false)
  const [deleting, setDeleting] = useState<TemplateToDelete | null>(null)
  const list = useTemplates({ search: search.trim() || null, visibility: visibility || null, archived })
  const duplicate = useDuplicateTemplate()
  const restore = useRestoreTemplate()

  const onDuplicate = async (id: string) => {
    try {
      const copy = await duplicate.mutateAsync({ id })
      toast({ title: 'Template duplicated.', tone: 'success' })
      await navigate(`/leaders/templates/${copy.id}/edit`)
    } catch (error) {
      toast(failureToast(error))
    }
  }
  const onRestore = async (id: string) => {
    try {
      await restore.mutateAsync({ id })
      toast({ title: 'Template restored.', tone: 'success' })
    } catch (error) {
      toast(failureToast(error))
    }
  }

  const templates = list.data ?? []
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold tracking-tight">Templates</h1>
        <Button asChild data-tour="create-template">
          <Link to="/leaders/templates/create">
            <Plus aria-hidden="true" className="size-4" />
            Create template
          </Link>
        </Button>
      </div>
      <div className="flex flex-wrap items-end gap-4">
        <div className="w-72">
          <FormField label="Search templates">
            <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
          </FormField>
        </div>
        <div className="w-48">
          <FormField label="Visibility">
            <Select value={visibility} onChange={(e) => setVisibility(e.target.value as Visibility | '')}>
              <option value="">All</option>
              {(Object.keys(VISIBILITY_LABEL) as Visibility[]).map((v) => (
                <option key={v} value={v}>
                  {VISIBILITY_LABEL[v]}
                </option>
              ))}
            </Select>
          </FormField>
        </div>
        <label className="flex h-10 items-center gap-2 text-sm">
          <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} className="size-4" />
          Show archived templates
        </label>
      </div>
      {list.isError && <Alert>{errorMessage(list.error)}</Alert>}
      {list.isSuccess && templates.length === 0 ? (
        search || visibility || archived ? (
          <EmptyState
            icon={LayoutTemplate}
            title={search || visibility ? 'No templates match' : 'No archived templates'}
            action={
              <Button
                variant="outline"
                onClick={() => {
                  setSearch('')
                  setVisibility('')
                  setArchived(false)
                }}
              >
                Show all templates
              </Button>
            }
          >
            {search || visibility
              ? 'No template has this title and visibility.'
              : 'A template used by a task is archived instead of deleted, and shows here.'}
          </EmptyState>
        ) : (
          <EmptyState
            icon={LayoutTemplate}
            title="No templates yet"
            action={
              <Button asChild>
                <Link to="/leaders/templates/create">Create your first template</Link>
              </Button>
            }
          >
            A template holds the questions a task asks; create one to get started.
          </EmptyState>
        )
      ) : (
        <DataTable
          caption={archived ? 'Archived templates' : 'Templates'}
          headers={['Title', 'Visibility', 'Questions', 'Owner', 'Updated', 'Actions']}
        >
          {templates.map((template) => (
            <tr key={template.id}>
              <Cell>
                <Link to={`/leaders/templates/${template.id}`} className="font-medium underline-offset-4 hover:underline">
                  {template.title}
                </Link>
                {template.tags.length > 0 && (
                  <div className="mt-1 flex flex-wrap gap-1">
                    {template.tags.map((tag) => (
                      <Badge key={tag} variant="outline">
                        {tag}
                      </Badge>
                    ))}
                  </div>
                )}
              </Cell>
              <Cell>
                <Badge>{VISIBILITY_LABEL[template.visibility]}</Badge>
              </Cell>
              <Cell>{template.questionCount}</Cell>
              <Cell>{template.ownerName}</Cell>
              <Cell>
                <DateText date={template.updatedAt} withTime={false} />
              </Cell>
              <Cell>
                <div className="flex flex-wrap gap-2">
                  <Button asChild size="sm" variant="outline">
                    <Link to={`/leaders/templates/${template.id}`} aria-label={`View ${template.title}`}>
                      View
                    </Link>
                  </Button>
                  {template.canEdit && !template.archived && (
                    <Button asChild size="sm" variant="outline">
                      <Link to={`/leaders/templates/${template.id}/edit`} aria-label={`Edit ${template.title}`}>
                        Edit
                      </Link>
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => onDuplicate(template.id)}
                    disabled={duplicate.isPending}
                    aria-label={`Duplicate ${template.title}`}
                  >
                    Duplicate
                  </Button>
                  {template.canEdit && !template.archived && (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => setDeleting(template)}
                      aria-label={`${template.taskCount > 0 ? 'Archive' : 'Delete'} ${template.title}`}
                    >
                      {template.taskCount > 0 ? 'Archive' : 'Delete'}
                    </Button>
                  )}
                  {template.canEdit && template.archived && (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => onRestore(template.id)}
                      disabled={restore.isPending}
                      aria-label={`Restore ${template.title}`}
                    >
                      Restore
                    </Button>
                  )}
                </div>
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
      <DeleteTemplateDialog template={deleting} onClose={() => setDeleting(null)} />
    </div>
  )
}
