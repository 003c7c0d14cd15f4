//! Whether the assistant's sheet is open, shared by the header's button and the sheet (which
//! closes itself for 'Ask by voice' and is reopened by the dictation drawer's callback).

import { createContext, useContext, type RefObject } from 'react'

export interface AssistantSheetControl {
  open: boolean
  setOpen(open: boolean): void
  /** The header's button, where focus returns when the sheet closes (it is no Radix trigger). */
  triggerRef: RefObject<HTMLButtonElement | null>
}

export const AssistantContext = createContext<AssistantSheetControl | null>(null)

export function useAssistantSheet(): AssistantSheetControl {
  const value = useContext(AssistantContext)
  if (!value) throw new Error('useAssistantSheet needs <AssistantProvider> above it')
  return value
}
