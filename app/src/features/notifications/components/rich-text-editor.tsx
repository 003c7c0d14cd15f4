//! A small rich-text editor: a contenteditable box with bold, italic and list buttons. It
//! hands HTML to the form; the server keeps only its allow-list (see docs/notifications.md).

import { useEffect, useRef } from 'react'

import { cn } from '@/lib/utils'

const COMMANDS = [
  ['bold', 'Bold', 'B'],
  ['italic', 'Italic', 'I'],
  ['insertUnorderedList', 'Bulleted list', '• List'],
  ['insertOrderedList', 'Numbered list', '1. List'],
] as const

export function RichTextEditor({
  value,
  onChange,
  labelId,
  invalid,
  describedBy,
}: {
  value: string
  onChange: (html: string) => void
  labelId: string
  invalid?: boolean
  describedBy?: string
}) {
  const box = useRef<HTMLDivElement>(null)
  // Set the HTML only when it differs, so typing never moves the caret.
  useEffect(() => {
    if (box.current && box.current.innerHTML !== value) box.current.innerHTML = value
  }, [value])

  const run = (command: string) => {
    box.current?.focus()
    document.execCommand(command)
    onChange(box.current?.innerHTML ?? '')
  }

  return (
    <div className={cn('rounded-md border border-border', invalid && 'border-destructive')}>
      <div role="toolbar" aria-label="Formatting" className="flex gap-1 border-b border-border p-1">
        {COMMANDS.map(([command, label, text]) => (
          <button
            key={command}
            type="button"
            aria-label={label}
            title={label}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => run(command)}
            className={cn(
              'rounded px-2 py-1 text-sm hover:bg-muted focus-visible:ring-3 focus-visible:ring-ring outline-none',
              command === 'bold' && 'font-bold',
              command === 'italic' && 'italic',
            )}
          >
            {text}
          </button>
        ))}
      </div>
      <div
        ref={box}
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelId}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        contentEditable
        suppressContentEditableWarning
        tabIndex={0}
        onInput={(event) => onChange(event.currentTarget.innerHTML)}
        className="prose min-h-40 max-w-none px-3 py-2 text-sm outline-none focus-visible:ring-3 focus-visible:ring-ring [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6"
      />
    </div>
  )
}
