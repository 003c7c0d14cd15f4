//! The Collaborate panel of a task: on Pro the owner picks colleagues of the school to work
//! on it with, and removes them; on Basic it offers the upgrade instead. Collaborators see
//! who the task is shared with.

import { useState } from 'react'

import { Section } from '@/components/section'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Select } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { failureToast } from '@/lib/form-errors'
import { UpgradeCall } from '@/components/upgrade-call'

import { useAddCollaborator } from '../api/add-collaborator'
import { useColleagues } from '../api/colleagues'
import type { Task } from '../api/get-task'
import { useRemoveCollaborator } from '../api/remove-collaborator'

export function CollaboratePanel({ task }: { task: Task }) {
  const owner = task.access === 'OWNER'
  const pro = task.plan === 'PRO'
  return (
    <div data-tour="collaborate">
      <Section title="Collaborate">
        {!owner ? (
          <SharedWith task={task} />
        ) : !pro ? (
          <UpgradePrompt />
        ) : (
          <OwnerControls task={task} />
        )}
      </Section>
    </div>
  )
}

function SharedWith({ task }: { task: Task }) {
  return (
    <p className="text-sm text-muted-foreground">
      This task is shared with you
      {task.collaborators.length > 0 && <> and {task.collaborators.map((c) => c.name).join(', ')}</>}. Only its owner can
      change who works on it.
    </p>
  )
}

function UpgradePrompt() {
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">
        Working on a task with colleagues is part of Pro. With Pro you can share this task.
      </p>
      <UpgradeCall />
    </div>
  )
}

function OwnerControls({ task }: { task: Task }) {
  const { toast } = useToast()
  const colleagues = useColleagues(task.id, true)
  const add = useAddCollaborator()
  const remove = useRemoveCollaborator()
  const [choice, setChoice] = useState('')
  const [collaborators, setCollaborators] = useState(task.collaborators)
  const available = (colleagues.data ?? []).filter((c) => !collaborators.some((k) => k.id === c.id))

  const onAdd = async () => {
    if (!choice) return
    try {
      setCollaborators(await add.mutateAsync({ id: task.id, userId: choice }))
      setChoice('')
    } catch (error) {
      toast(failureToast(error))
    }
  }
  const onRemove = async (userId: string) => {
    try {
      setCollaborators(await remove.mutateAsync({ id: task.id, userId }))
    } catch (error) {
      toast(failureToast(error))
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3">
        <div className="min-w-60 flex-1">
          <FormField label="Colleague" hint="Colleagues can see and edit the answers; they cannot delete or share the task.">
            <Select value={choice} onChange={(e) => setChoice(e.target.value)} disabled={!colleagues.data}>
              <option value="">{colleagues.data ? 'Choose a colleague' : 'Loading colleagues…'}</option>
              {available.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.email})
                </option>
              ))}
            </Select>
          </FormField>
        </div>
        <Button type="button" onClick={onAdd} disabled={!choice || add.isPending}>
          Add colleague
        </Button>
      </div>
      {collaborators.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nobody else works on this task yet.</p>
      ) : (
        <ul className="divide-y divide-border rounded-md border border-border" aria-label="Collaborators">
          {collaborators.map((c) => (
            <li key={c.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
              <span>{c.name}</span>
              <Button
                type="button"
                variant="outline"
                size="sm"
                aria-label={`Remove ${c.name}`}
                disabled={remove.isPending}
                onClick={() => onRemove(c.id)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
