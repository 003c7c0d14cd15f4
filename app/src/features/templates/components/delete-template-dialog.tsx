//! The confirm dialog of Delete (a template no task uses) or Archive (one tasks use: it is
//! hidden from the list and from new tasks, and can be restored).

import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'

import { useDeleteTemplate } from '../api/delete-template'

export interface TemplateToDelete {
  id: string
  title: string
  taskCount: number
}

export function DeleteTemplateDialog({
  template,
  onClose,
  onDone,
}: {
  /** The dialog is open while there is one. */
  template: TemplateToDelete | null
  onClose: () => void
  onDone?: (outcome: 'DELETED' | 'ARCHIVED') => void
}) {
  const { toast } = useToast()
  const remove = useDeleteTemplate()
  const archive = (template?.taskCount ?? 0) > 0
  const confirm = async () => {
    if (!template) return
    try {
      const { outcome } = await remove.mutateAsync({ id: template.id })
      toast({
        title: outcome === 'ARCHIVED' ? 'Template archived.' : 'Template deleted.',
        tone: 'success',
      })
      onClose()
      onDone?.(outcome)
    } catch (error) {
      toast(failureToast(error))
    }
  }
  return (
    <Dialog open={template !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <div className="space-y-4">
          <DialogTitle className="text-lg font-semibold">
            {archive ? 'Archive template?' : 'Delete template?'}
          </DialogTitle>
          <DialogDescription className="text-sm text-muted-foreground">
            {archive
              ? `“${template?.title}” is used by tasks, so it will be archived instead of deleted: it leaves the list and cannot start new tasks. You can restore it from the archived templates.`
              : `“${template?.title}” and its questions will be deleted. This cannot be undone.`}
          </DialogDescription>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="button" className="bg-destructive text-white hover:bg-destructive/90" onClick={confirm} disabled={remove.isPending}>
              {archive ? 'Archive' : 'Delete'}
            </Button>
          </div>
        </div>
      </DialogContent>
    </Dialog>
  )
}
