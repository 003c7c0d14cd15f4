//! `/feedback/comment-bank`: the Comment bank page (docs/comment-bank.md). Tabs 'Mine' and
//! 'School' (and 'Proposed' for the school's admins); search; sort by use (default) or
//! newest; add, edit, delete (after confirming), propose to the school; admins approve or
//! reject proposals and edit the school's bank; 'Import CSV' into 'Mine' and 'Export CSV'
//! of the tab shown.

import { zodResolver } from '@hookform/resolvers/zod'
import { MessageSquareText } from 'lucide-react'
import { useDeferredValue, useId, useState, type ChangeEvent } from 'react'
import { useForm } from 'react-hook-form'

import { EmptyState } from '@/components/empty-state'
import { Alert } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button, buttonVariants } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { FormField } from '@/components/ui/form-field'
import { Input, Label, Select, Textarea } from '@/components/ui/input'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { useToast } from '@/components/ui/toaster'
import { SENTIMENT_LABELS } from '@/lib/comment-bank'
import { formatDate, isoDate } from '@/lib/format-date'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { errorMessage, fieldErrors } from '@/lib/rpc'
import { cn } from '@/lib/utils'

import { downloadCommentsCsv, useImportComments } from '../api/csv'
import { useDeleteComment } from '../api/delete-comment'
import { useCommentBank, type BankCommentView } from '../api/list-comments'
import { useProposeComment, useReviewComment } from '../api/propose-comment'
import { commentSchema, tagList, useAddComment, useUpdateComment, type CommentValues } from '../api/save-comment'

type Shelf = 'MINE' | 'SCHOOL' | 'PROPOSED'
type Sort = 'USE' | 'NEWEST'

const SENTIMENTS = ['NEUTRAL', 'POSITIVE', 'NEGATIVE'] as const

const sentimentBadge = { NEUTRAL: 'secondary', POSITIVE: 'success', NEGATIVE: 'warning' } as const

/** The add / edit form, in a dialog. `editing` null adds to `shelf`. */
function CommentForm({
  editing,
  shelf,
  onDone,
}: {
  editing: BankCommentView | null
  shelf: Shelf
  onDone: () => void
}) {
  const { toast } = useToast()
  const add = useAddComment()
  const update = useUpdateComment()
  const sentimentId = useId()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<CommentValues>({
    resolver: zodResolver(commentSchema),
    defaultValues: {
      text: editing?.text ?? '',
      sentiment: editing?.sentiment ?? 'NEUTRAL',
      tags: editing?.tags.join('; ') ?? '',
    },
  })
  const onSubmit = handleSubmit(async (values) => {
    const input = { text: values.text.trim(), sentiment: values.sentiment, tags: tagList(values.tags) }
    try {
      if (editing) await update.mutateAsync({ id: editing.id, ...input })
      else await add.mutateAsync({ ...input, school: shelf === 'SCHOOL' })
      toast({ title: editing ? 'Comment saved.' : 'Comment added.', tone: 'success' })
      onDone()
    } catch (error) {
      if (!setServerErrors(error, setError, ['text', 'sentiment', 'tags'])) toast(failureToast(error))
    }
  })
  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4">
      <FormField label="Comment" error={errors.text?.message} hint="Write {name} where the pupil's first name goes.">
        <Textarea autoFocus rows={4} {...register('text')} />
      </FormField>
      <fieldset className="space-y-2" aria-describedby={errors.sentiment ? `${sentimentId}-error` : undefined}>
        <legend className="text-sm font-medium">Sentiment</legend>
        <div className="flex flex-wrap gap-4">
          {SENTIMENTS.map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm">
              <input type="radio" value={value} className="size-4 accent-primary" {...register('sentiment')} />
              {SENTIMENT_LABELS[value]}
            </label>
          ))}
        </div>
        {errors.sentiment && (
          <p id={`${sentimentId}-error`} className="text-sm text-destructive">
            {errors.sentiment.message}
          </p>
        )}
      </fieldset>
      <FormField label="Tags" error={errors.tags?.message} hint="Subject and year group, separated by ; (optional).">
        <Input autoComplete="off" {...register('tags')} />
      </FormField>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={isSubmitting}>
          Save comment
        </Button>
      </div>
    </form>
  )
}

function CommentItem({
  comment,
  onEdit,
  onDelete,
}: {
  comment: BankCommentView
  onEdit: (comment: BankCommentView) => void
  onDelete: (comment: BankCommentView) => void
}) {
  const { toast } = useToast()
  const propose = useProposeComment()
  const review = useReviewComment()
  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work()
      toast({ title: done, tone: 'success' })
    } catch (error) {
      toast(failureToast(error))
    }
  }
  const short = comment.text.length > 40 ? `${comment.text.slice(0, 40)}…` : comment.text
  return (
    <li className="space-y-2 rounded-lg border border-border p-4" aria-label={short}>
      <p className="break-words whitespace-pre-line">{comment.text}</p>
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <Badge variant={sentimentBadge[comment.sentiment]}>{SENTIMENT_LABELS[comment.sentiment]}</Badge>
        {comment.tags.map((tag) => (
          <Badge key={tag} variant="outline">
            {tag}
          </Badge>
        ))}
        <span>Used {comment.useCount === 1 ? 'once' : `${comment.useCount} times`}</span>
        {comment.lastUsedAt && (
          <span>
            · last used <time dateTime={isoDate(comment.lastUsedAt)}>{formatDate(comment.lastUsedAt)}</time>
          </span>
        )}
        {comment.proposedBy && <span>· proposed by {comment.proposedBy}</span>}
      </div>
      <div className="flex flex-wrap gap-2">
        {comment.shelf === 'PROPOSED' ? (
          <>
            <Button
              size="sm"
              aria-label={`Approve ${short}`}
              disabled={review.isPending}
              onClick={() => run(() => review.mutateAsync({ id: comment.id, approve: true }), 'Comment approved.')}
            >
              Approve
            </Button>
            <Button
              size="sm"
              variant="outline"
              aria-label={`Reject ${short}`}
              disabled={review.isPending}
              onClick={() => run(() => review.mutateAsync({ id: comment.id, approve: false }), 'Proposal rejected.')}
            >
              Reject
            </Button>
          </>
        ) : (
          comment.canChange && (
            <>
              <Button size="sm" variant="outline" aria-label={`Edit ${short}`} onClick={() => onEdit(comment)}>
                Edit
              </Button>
              <Button size="sm" variant="outline" aria-label={`Delete ${short}`} onClick={() => onDelete(comment)}>
                Delete
              </Button>
            </>
          )
        )}
        {comment.shelf === 'MINE' && (
          <Button
            size="sm"
            variant="outline"
            aria-label={`Propose to school ${short}`}
            disabled={propose.isPending}
            onClick={() =>
              run(() => propose.mutateAsync({ id: comment.id }), 'Proposed to your school. An administrator will review it.')
            }
          >
            Propose to school
          </Button>
        )}
      </div>
    </li>
  )
}

function ImportCsv({ onImported }: { onImported: () => void }) {
  const { toast } = useToast()
  const importCsv = useImportComments()
  const [problems, setProblems] = useState<string[]>([])
  const [chosen, setChosen] = useState('')
  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (!file) return
    setChosen(file.name)
    setProblems([])
    try {
      const { imported, skipped } = await importCsv.mutateAsync({ csv: await file.text() })
      const already = skipped > 0 ? ` ${skipped} already in your bank were left out.` : ''
      toast({ title: `Imported ${imported} ${imported === 1 ? 'comment' : 'comments'}.${already}`, tone: 'success' })
      onImported()
    } catch (error) {
      const fields = (error as { data?: { zodError?: { fieldErrors?: Record<string, string[]> } } }).data?.zodError
        ?.fieldErrors?.csv
      if (fields?.length) setProblems(fields)
      else setProblems([fieldErrors(error).csv ?? errorMessage(error)])
    }
  }
  return (
    <div className="space-y-2">
      <input
        id="comment-bank-import"
        type="file"
        accept=".csv,text/csv"
        className="peer sr-only"
        onChange={onFile}
        disabled={importCsv.isPending}
      />
      <label
        htmlFor="comment-bank-import"
        className={cn(
          buttonVariants({ variant: 'outline' }),
          'cursor-pointer peer-focus-visible:ring-3 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2',
        )}
      >
        Import CSV
      </label>
      {chosen && importCsv.isPending && (
        <p role="status" className="text-sm text-muted-foreground">
          Importing {chosen}…
        </p>
      )}
      {problems.length > 0 && (
        <Alert>
          <p className="font-medium">{chosen} was not imported. Nothing was added:</p>
          <ul className="mt-1 list-disc space-y-0.5 pl-5">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </Alert>
      )}
    </div>
  )
}

export function CommentBankPage() {
  const { toast } = useToast()
  const [shelf, setShelf] = useState<Shelf>('MINE')
  const [search, setSearch] = useState('')
  const [sort, setSort] = useState<Sort>('USE')
  const deferredSearch = useDeferredValue(search)
  const bank = useCommentBank({ shelf, search: deferredSearch, sort })
  const remove = useDeleteComment()
  const [editing, setEditing] = useState<BankCommentView | null>(null)
  const [adding, setAdding] = useState(false)
  const [deleting, setDeleting] = useState<BankCommentView | null>(null)
  const canReview = bank.data?.canReview ?? false
  const canAdd = shelf === 'MINE' || (shelf === 'SCHOOL' && canReview)

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await remove.mutateAsync({ id: deleting.id })
      toast({ title: 'Comment deleted.', tone: 'success' })
      setDeleting(null)
    } catch (error) {
      toast(failureToast(error))
    }
  }
  const exportCsv = async () => {
    try {
      const rows = await downloadCommentsCsv(shelf === 'SCHOOL' ? 'SCHOOL' : 'MINE')
      toast({ title: `Exported ${rows} ${rows === 1 ? 'comment' : 'comments'}.`, tone: 'success' })
    } catch (error) {
      toast(failureToast(error))
    }
  }

  const items = bank.data?.items ?? []
  const total = bank.data?.total ?? 0
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">Comment bank</h1>
        <p className="text-muted-foreground">
          Comments you use again and again. Type three letters in a feedback box to insert one.
        </p>
      </div>
      <Tabs value={shelf} onValueChange={(value) => setShelf(value as Shelf)}>
        <TabsList aria-label="Comment bank" className="flex-wrap">
          <TabsTrigger value="MINE">Mine</TabsTrigger>
          <TabsTrigger value="SCHOOL">School</TabsTrigger>
          {canReview && (
            <TabsTrigger value="PROPOSED">
              Proposed{bank.data && bank.data.proposedCount > 0 ? ` (${bank.data.proposedCount})` : ''}
            </TabsTrigger>
          )}
        </TabsList>
        <TabsContent value={shelf} className="space-y-6">
          <div className="flex flex-wrap items-end gap-3">
            <div className="min-w-48 flex-1 space-y-1.5">
              <Label htmlFor="comment-bank-search">Search comments</Label>
              <Input
                id="comment-bank-search"
                type="search"
                autoComplete="off"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="comment-bank-sort">Sort by</Label>
              <Select id="comment-bank-sort" value={sort} onChange={(event) => setSort(event.target.value as Sort)}>
                <option value="USE">Most used</option>
                <option value="NEWEST">Newest</option>
              </Select>
            </div>
          </div>
          <div className="flex flex-wrap items-start gap-2">
            {canAdd && <Button onClick={() => setAdding(true)}>Add comment</Button>}
            {shelf === 'MINE' && <ImportCsv onImported={() => setSearch('')} />}
            {shelf !== 'PROPOSED' && (
              <Button variant="outline" onClick={exportCsv}>
                Export CSV
              </Button>
            )}
          </div>
          {bank.isError && <Alert>The comment bank could not be loaded: {errorMessage(bank.error)}</Alert>}
          {bank.isPending && <p role="status">Loading…</p>}
          {bank.data && items.length === 0 && (
            <EmptyState icon={MessageSquareText} title={search ? 'No comments match' : 'No comments yet'}>
              {search
                ? 'Try other words.'
                : shelf === 'MINE'
                  ? 'Add a comment, import a CSV file, or save one from your feedback.'
                  : shelf === 'SCHOOL'
                    ? "Your school's shared comments appear here once an administrator approves them."
                    : 'Comments teachers propose for the school appear here.'}
            </EmptyState>
          )}
          {items.length > 0 && (
            <>
              {total > items.length && (
                <p className="text-sm text-muted-foreground">
                  Showing {items.length} of {total} comments. Search to narrow the list.
                </p>
              )}
              <ul className="space-y-3" aria-label="Comments">
                {items.map((comment) => (
                  <CommentItem key={comment.id} comment={comment} onEdit={setEditing} onDelete={setDeleting} />
                ))}
              </ul>
            </>
          )}
        </TabsContent>
      </Tabs>
      <Dialog
        open={adding || editing !== null}
        onOpenChange={(open) => {
          if (!open) {
            setAdding(false)
            setEditing(null)
          }
        }}
      >
        <DialogContent>
          <DialogTitle className="text-lg font-semibold">{editing ? 'Edit comment' : 'Add comment'}</DialogTitle>
          <DialogDescription className="mt-2 text-sm text-muted-foreground">
            {editing
              ? 'Change the wording, sentiment or tags.'
              : shelf === 'SCHOOL'
                ? "The comment goes into your school's comment bank."
                : 'The comment goes into your own comment bank.'}
          </DialogDescription>
          {(adding || editing) && (
            <CommentForm
              key={editing?.id ?? 'new'}
              editing={editing}
              shelf={shelf}
              onDone={() => {
                setAdding(false)
                setEditing(null)
              }}
            />
          )}
        </DialogContent>
      </Dialog>
      <Dialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <DialogContent role="alertdialog">
          <DialogTitle className="text-lg font-semibold">Delete comment?</DialogTitle>
          <DialogDescription className="mt-2 text-sm break-words text-muted-foreground">
            “{deleting?.text}” will be deleted for good.
          </DialogDescription>
          <div className="mt-6 flex justify-end gap-2">
            <Button variant="outline" onClick={() => setDeleting(null)}>
              Cancel
            </Button>
            <Button onClick={confirmDelete} disabled={remove.isPending}>
              Delete
            </Button>
          </div>
        </DialogContent>
      </Dialog>
    </div>
  )
}
