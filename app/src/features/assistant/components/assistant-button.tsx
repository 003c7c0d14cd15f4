//! The header's 'AI assistant' button, in both areas, for every signed-in user.

import { Button } from '@/components/ui/button'

import { useAssistantSheet } from '../assistant-context'

export function AssistantButton() {
  const { setOpen, triggerRef } = useAssistantSheet()
  return (
    <Button ref={triggerRef} variant="ghost" size="sm" aria-label="AI assistant" aria-haspopup="dialog" onClick={() => setOpen(true)}>
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round">
        <path d="M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8z" />
        <path d="M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z" />
        <path d="M5 15v4M3 17h4" />
      </svg>
    </Button>
  )
}
