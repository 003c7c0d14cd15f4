//! 'Import from Microsoft 365': two tabs. Files browses OneDrive or the library of a
//! SharePoint site the caller follows, chosen under 'Location' (folder rows open, a
//! breadcrumb goes back, files have a checkbox; choices are kept while moving between
//! folders and places); Teams recordings lists the caller's meeting recordings of the last 30 days
//! with their date and whether Teams has a transcript. Import brings the chosen items into
//! the task (`taskContent.importMicrosoft`); they then show in the content list with their
//! state, like uploads.

import { useEffect, useState } from 'react'

import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Select } from '@/components/ui/input'
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { useToast } from '@/components/ui/toaster'
import type { ImportMicrosoftFile, ImportMicrosoftRecording } from '@/generated/rpc-types'
import { formatDate } from '@/lib/format-date'
import { errorMessage, fieldErrors } from '@/lib/rpc'

import { useImportMicrosoft } from '../../api/content/import-microsoft'
import { useMicrosoftLibraries } from '../../api/content/microsoft-libraries'
import { useMicrosoftBrowse, type MicrosoftFolder, type MicrosoftItem } from '../../api/content/microsoft-browse'
import { useMicrosoftRecordings, type MeetingRecording } from '../../api/content/microsoft-recordings'
import { fileSize, recordingItemName, recordingTitle } from './microsoft-365'

/** The most items one import takes (`MAX_IMPORT_ITEMS` on the server). */
export const MAX_IMPORT_ITEMS = 20

type TabKey = 'files' | 'recordings'

interface Crumb extends MicrosoftFolder {
  name: string
}

const ROOT: Crumb = { driveId: null, itemId: null, name: 'My files' }

const fileKey = (item: MicrosoftItem) => `${item.driveId ?? ''}:${item.id}`

function FolderIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5 shrink-0 text-muted-foreground" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M3 6h6l2 2h10v11H3Z" />
    </svg>
  )
}

function FilesPanel({
  open,
  chosen,
  onToggle,
}: {
  open: boolean
  chosen: Map<string, ImportMicrosoftFile>
  onToggle: (item: MicrosoftItem, on: boolean) => void
}) {
  const [path, setPath] = useState<Crumb[]>([ROOT])
  const here = path[path.length - 1]
  const listing = useMicrosoftBrowse({ driveId: here.driveId, itemId: here.itemId }, open)
  const items = listing.data?.items ?? []
  const libraries = useMicrosoftLibraries(open)
  const place = path[0].driveId ?? ''

  const choosePlace = (driveId: string) => {
    const library = libraries.data?.find((l) => l.driveId === driveId)
    setPath([library ? { driveId: library.driveId, itemId: null, name: library.name } : ROOT])
  }

  return (
    <div className="space-y-3">
      <div className="space-y-1">
        <label htmlFor="microsoft-location" className="text-sm font-medium">
          Location
        </label>
        <Select id="microsoft-location" value={place} onChange={(event) => choosePlace(event.target.value)}>
          <option value="">My OneDrive</option>
          {(libraries.data ?? []).map((library) => (
            <option key={library.driveId} value={library.driveId}>
              {library.name}
            </option>
          ))}
        </Select>
        {libraries.isError && (
          <p className="text-sm text-muted-foreground">SharePoint sites could not be listed: {errorMessage(libraries.error)}</p>
        )}
        {libraries.data && libraries.data.length === 0 && (
          <p className="text-sm text-muted-foreground">
            To import from a SharePoint site or a Teams team's files, follow the site in SharePoint; it is then listed here.
          </p>
        )}
      </div>
      <nav aria-label="Folder path">
        <ol className="flex flex-wrap items-center gap-1 text-sm">
          {path.map((crumb, i) => (
            <li key={`${crumb.driveId}:${crumb.itemId}`} className="flex items-center gap-1">
              {i > 0 && <span aria-hidden="true">/</span>}
              {i === path.length - 1 ? (
                <span aria-current="location" className="font-medium">
                  {crumb.name}
                </span>
              ) : (
                <Button type="button" variant="link" size="sm" className="h-auto p-0" onClick={() => setPath(path.slice(0, i + 1))}>
                  {crumb.name}
                </Button>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {listing.isPending && <p className="text-sm">Loading your files…</p>}
      {listing.isError && <Alert>{errorMessage(listing.error)}</Alert>}
      {listing.data && items.length === 0 && <p className="text-sm text-muted-foreground">This folder is empty.</p>}
      {items.length > 0 && (
        <ul className="space-y-1" aria-label={`Files in ${here.name}`}>
          {items.map((item) =>
            item.folder ? (
              <li key={fileKey(item)}>
                <button
                  type="button"
                  className="flex w-full items-center gap-3 rounded-md border border-border p-2 text-left text-sm hover:bg-muted focus-visible:ring-3 focus-visible:ring-ring focus-visible:outline-none"
                  onClick={() => setPath([...path, { driveId: item.driveId, itemId: item.id, name: item.name }])}
                >
                  <FolderIcon />
                  <span className="flex-1 truncate">{item.name}</span>
                  <span className="text-xs text-muted-foreground">Folder</span>
                </button>
              </li>
            ) : (
              <li key={fileKey(item)}>
                <label className="flex items-center gap-3 rounded-md border border-border p-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 focus-visible:ring-3 focus-visible:ring-ring"
                    checked={chosen.has(fileKey(item))}
                    onChange={(event) => onToggle(item, event.target.checked)}
                  />
                  <span className="flex-1 truncate">{item.name}</span>
                  <span className="text-xs text-muted-foreground">
                    {[fileSize(item.size), item.modified ? formatDate(item.modified) : ''].filter(Boolean).join(' · ')}
                  </span>
                </label>
              </li>
            ),
          )}
        </ul>
      )}
    </div>
  )
}

function RecordingsPanel({
  open,
  chosen,
  onToggle,
}: {
  open: boolean
  chosen: Map<string, ImportMicrosoftRecording>
  onToggle: (recording: MeetingRecording, on: boolean) => void
}) {
  const recordings = useMicrosoftRecordings(open)
  const list = recordings.data ?? []
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">Recordings of Teams meetings you organised in the last 30 days.</p>
      {recordings.isPending && <p className="text-sm">Loading your recordings…</p>}
      {recordings.isError && <Alert>{errorMessage(recordings.error)}</Alert>}
      {recordings.data && list.length === 0 && (
        <p className="text-sm text-muted-foreground">No recordings of your Teams meetings in the last 30 days.</p>
      )}
      {list.length > 0 && (
        <ul className="space-y-1" aria-label="Teams recordings">
          {list.map((recording) => (
            <li key={recording.recordingId}>
              <label className="flex items-center gap-3 rounded-md border border-border p-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4 focus-visible:ring-3 focus-visible:ring-ring"
                  checked={chosen.has(recording.recordingId)}
                  onChange={(event) => onToggle(recording, event.target.checked)}
                />
                <span className="flex-1">
                  <span className="block">{recordingTitle(recording.createdAt)}</span>
                  <span className="block text-xs text-muted-foreground">
                    {recording.transcriptId
                      ? 'Teams transcript available'
                      : 'No Teams transcript: it will be transcribed'}
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

export function MicrosoftImportDialog({
  taskId,
  open,
  onOpenChange,
}: {
  taskId: string
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { toast } = useToast()
  const importItems = useImportMicrosoft()
  const [tab, setTab] = useState<TabKey>('files')
  const [files, setFiles] = useState(new Map<string, ImportMicrosoftFile>())
  const [recordings, setRecordings] = useState(new Map<string, ImportMicrosoftRecording>())
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    if (!open) return
    setFiles(new Map())
    setRecordings(new Map())
    setProblem(null)
  }, [open])

  const toggleFile = (item: MicrosoftItem, on: boolean) =>
    setFiles((old) => {
      const next = new Map(old)
      if (on) next.set(fileKey(item), { driveId: item.driveId, itemId: item.id, name: item.name, mimeType: item.mimeType })
      else next.delete(fileKey(item))
      return next
    })

  const toggleRecording = (recording: MeetingRecording, on: boolean) =>
    setRecordings((old) => {
      const next = new Map(old)
      if (on)
        next.set(recording.recordingId, {
          meetingId: recording.meetingId,
          recordingId: recording.recordingId,
          transcriptId: recording.transcriptId,
          name: recordingItemName(recording.createdAt),
        })
      else next.delete(recording.recordingId)
      return next
    })

  const count = files.size + recordings.size
  const onImport = async () => {
    setProblem(null)
    if (count === 0) return setProblem('Choose at least one file or recording.')
    if (count > MAX_IMPORT_ITEMS) return setProblem(`Choose at most ${MAX_IMPORT_ITEMS} files and recordings at a time.`)
    try {
      const { itemIds } = await importItems.mutateAsync({
        taskId,
        files: [...files.values()],
        recordings: [...recordings.values()],
      })
      toast({
        title: itemIds.length === 1 ? 'Importing 1 item' : `Importing ${itemIds.length} items`,
        description: 'It shows in the content overview with its state.',
        tone: 'success',
      })
      onOpenChange(false)
    } catch (error) {
      const fields = Object.values(fieldErrors(error))
      setProblem(fields.length > 0 ? fields.join(' ') : errorMessage(error))
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="flex max-h-[85dvh] max-w-xl flex-col">
        <DialogTitle className="text-lg font-semibold">Import from Microsoft 365</DialogTitle>
        <DialogDescription className="text-sm text-muted-foreground">
          Choose files from OneDrive or SharePoint and recordings of your Teams meetings. A recording uses the meeting's
          Teams transcript when there is one; otherwise it is transcribed.
        </DialogDescription>
        <Tabs
          className="mt-4 min-h-0 flex-1 overflow-y-auto"
          value={tab}
          onValueChange={(value) => setTab(value as TabKey)}
        >
          <TabsList aria-label="What to import">
            <TabsTrigger value="files">Files</TabsTrigger>
            <TabsTrigger value="recordings">Teams recordings</TabsTrigger>
          </TabsList>
          <TabsContent value="files" forceMount>
            <FilesPanel open={open} chosen={files} onToggle={toggleFile} />
          </TabsContent>
          <TabsContent value="recordings" forceMount>
            <RecordingsPanel open={open} chosen={recordings} onToggle={toggleRecording} />
          </TabsContent>
        </Tabs>
        {problem && (
          <div className="mt-3">
            <Alert>{problem}</Alert>
          </div>
        )}
        <div className="mt-4 flex flex-wrap items-center justify-end gap-2">
          <p className="mr-auto text-sm text-muted-foreground" aria-live="polite">
            {count === 1 ? '1 item chosen' : `${count} items chosen`}
          </p>
          <DialogClose asChild>
            <Button type="button" variant="outline">
              Cancel
            </Button>
          </DialogClose>
          <Button type="button" disabled={importItems.isPending} onClick={() => void onImport()}>
            {importItems.isPending ? 'Importing…' : 'Import'}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  )
}
