//! "Saved reports": the caller's reports with title and date (dd/MM/yyyy), 20 at a time with
//! "Show more reports"; open one back into the form, or delete it after confirming.

import { useState } from 'react'

import { Section } from '@/components/section'
import { ShowMore } from '@/components/show-more'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toaster'
import { formatDate, isoDate } from '@/lib/format-date'
import { failureToast } from '@/lib/form-errors'
import { errorMessage } from '@/lib/rpc'

import { useDeleteReport } from '../api/delete-report'
import { useReports, type SavedReport } from '../api/list-reports'

export function SavedReports({ onOpen, onDeleted }: { onOpen: (id: string) => void; onDeleted: (id: string) => void }) {
  const reports = useReports()
  const remove = useDeleteReport()
  const { toast } = useToast()
  const [deleting, setDeleting] = useState<SavedReport | null>(null)
  const shown = reports.data?.pages.flatMap((page) => page.reports)

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await remove.mutateAsync({ id: deleting.id })
      onDeleted(deleting.id)
      toast({ title: 'Report deleted.', tone: 'success' })
      setDeleting(null)
    } catch (error) {
      toast(failureToast(error))
    }
  }

  return (
    <Section title="Saved reports">
      {reports.isError && <Alert>Your reports could not be loaded: {errorMessage(reports.error)}</Alert>}
      {reports.isPending && <p role="status">Loading…</p>}
      {shown && shown.length === 0 && (
        <p className="text-sm text-muted-foreground">No saved reports yet. Generate one above and save it.</p>
      )}
      {shown && shown.length > 0 && (
        <ul className="divide-y divide-border" aria-label="Saved reports">
          {shown.map((report) => (
            <li key={report.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="truncate font-medium">{report.title}</p>
                <p className="text-sm text-muted-foreground">
                  Saved <time dateTime={isoDate(report.updatedAt)}>{formatDate(report.updatedAt)}</time>
                </p>
              </div>
              <div className="flex gap-2">
                <Button size="sm" variant="outline" onClick={() => onOpen(report.id)} aria-label={`Open ${report.title}`}>
                  Open
                </Button>
                <Button size="sm" variant="outline" onClick={() => setDeleting(report)} aria-label={`Delete ${report.title}`}>
                  Delete
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {/* Only once there is more than a page, so a short list looks as it always has. */}
      {reports.data && (reports.hasNextPage || reports.data.pages.length > 1) && (
        <ShowMore
          shown={shown?.length ?? 0}
          total={reports.data.pages[0]?.total ?? 0}
          noun="reports"
          more={reports.hasNextPage}
          loading={reports.isFetchingNextPage}
          onMore={() => void reports.fetchNextPage()}
        />
      )}
      <Dialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <DialogContent role="alertdialog">
          <DialogTitle className="text-lg font-semibold">Delete report?</DialogTitle>
          <DialogDescription className="mt-2 text-sm text-muted-foreground">
            {deleting?.title} will be deleted for good.
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
    </Section>
  )
}
