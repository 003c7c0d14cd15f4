//! The AI assistant's right-hand sheet: a question typed or dictated, the answer streaming in
//! with what the assistant is looking up, drafts to open in the message editor, and the
//! caller's history. Answers use only what the caller may see (the server checks); the
//! assistant never sends anything itself. The conversation is kept here, outside the sheet's
//! content, so it survives the sheet closing while the question is dictated.

import { useRef } from 'react'
import { useLocation, useNavigate } from 'react-router'

import { FeatureOff } from '@/components/feature-off'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogDescription, DialogTitle, SheetContent } from '@/components/ui/dialog'
import { saveAssistantMessageDraft, type AssistantMessageDraft } from '@/lib/assistant-notes'
import { useDictation } from '@/lib/capture'
import { errorMessage } from '@/lib/rpc'

import { useAssistantHistory } from '../api/assistant-history'
import { useFeatures } from '@/lib/features'
import { useAssistantSheet } from '../assistant-context'
import { useAssistantConversation } from '../use-assistant-conversation'
import { Conversation } from './conversation'
import { HistoryList } from './history-list'
import { QuestionForm } from './question-form'
import { SuggestedQuestions } from './suggested-questions'

/** How the dictation drawer presents itself when it takes a question. */
const VOICE = {
  insertLabel: 'Ask the assistant',
  title: 'Ask the assistant',
  description: 'Speak your question; the transcript appears as you talk.',
}

export function AssistantSheet() {
  const { open, setOpen, triggerRef } = useAssistantSheet()
  // Closing gives focus back to the header's button, unless the dictation drawer takes over.
  const returnFocus = useRef(true)
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const dictation = useDictation()
  const features = useFeatures(open)
  const configured = features.data?.chat === true
  const history = useAssistantHistory(open && configured)
  const { turns, busy, ask, reset, open: openStored, askAgain } = useAssistantConversation(pathname)
  // Examples for a first question: only while nothing has been asked yet.
  const firstTime =
    turns.length === 0 && (history.isError || history.data?.enabled === false || history.data?.items.length === 0)

  // The sheet gives way to the dictation drawer; its button brings the sheet back and asks.
  const askByVoice = () => {
    returnFocus.current = false
    setOpen(false)
    dictation.open(
      (text) => {
        setOpen(true)
        ask(text)
      },
      undefined,
      VOICE,
    )
  }

  const openDraft = (draft: AssistantMessageDraft) => {
    saveAssistantMessageDraft(draft)
    setOpen(false)
    void navigate(`/notifications/create?assistant=1${draft.type === 'ASSIGNMENT' ? '&type=ASSIGNMENT' : ''}`)
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <SheetContent
        className="right-0 left-auto w-[32rem] max-w-[100vw] border-r-0 border-l sm:max-w-[85vw]"
        onCloseAutoFocus={(event) => {
          event.preventDefault()
          if (returnFocus.current) triggerRef.current?.focus()
          returnFocus.current = true
        }}
      >
        <div className="flex items-start gap-3 border-b border-border p-5">
          <div className="flex-1 space-y-1">
            <DialogTitle className="text-lg font-semibold">AI assistant</DialogTitle>
            <DialogDescription className="text-sm text-muted-foreground">
              Ask about your classes, assignments and feedback. Answers use only what you can see.
            </DialogDescription>
          </div>
          <Button variant="ghost" size="sm" aria-label="Close the assistant" onClick={() => setOpen(false)}>
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M6 6l12 12M18 6 6 18" />
            </svg>
          </Button>
        </div>
        <div className="flex min-h-0 flex-1 flex-col gap-5 overflow-y-auto p-5">
          {features.isPending && <p role="status" className="text-sm">Loading…</p>}
          {features.isError && <Alert>{errorMessage(features.error)}</Alert>}
          {features.data && !configured && <FeatureOff capability="assistant" />}
          {configured && (
            <>
              {turns.length > 0 && (
                <Conversation turns={turns} busy={busy} onRetry={ask} onOpenDraft={openDraft} onNewConversation={reset} />
              )}
              {firstTime && <SuggestedQuestions disabled={busy} onAsk={ask} />}
              <QuestionForm busy={busy} onAsk={ask} onAskByVoice={askByVoice} />
              <HistoryList history={history} busy={busy} onOpen={openStored} onAskAgain={askAgain} />
            </>
          )}
        </div>
      </SheetContent>
    </Dialog>
  )
}
