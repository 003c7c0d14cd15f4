//! The panel's conversation: each question with its answer as it streams in, the tool status
//! while one runs, the drafts it produced and any error. The server's `conversation` from the
//! last `done` goes back with the next question, so follow-ups carry their context; a new
//! conversation (or one opened from the history) starts without it.

import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'

import type { AssistantMessageDraft } from '@/lib/assistant-notes'
import { errorMessage, invalidateRpc } from '@/lib/rpc'

import { askAssistant, type AssistantEvent } from './api/ask-assistant'

export interface Turn {
  key: number
  question: string
  /** The answer so far (Markdown). */
  answer: string
  /** What the assistant is doing (a tool running), while it does. */
  status: string | null
  drafts: AssistantMessageDraft[]
  /** The sentence to show when it failed; the question stays and can be asked again. */
  error: string | null
  pending: boolean
  /** For a turn opened from the history: when it was asked. */
  askedAt?: Date
  /** For a turn opened from the history whose answer was not kept. */
  noAnswer?: boolean
}

let nextKey = 1

/** A turn opened from the history: its stored question and answer. */
export interface StoredQuestion {
  question: string
  answer: string | null
  createdAt: Date
}

/** `pathname` is the page the sheet was opened over, sent with each question as its context. */
export function useAssistantConversation(pathname: string) {
  const queryClient = useQueryClient()
  const [turns, setTurns] = useState<Turn[]>([])
  const [busy, setBusy] = useState(false)
  const conversation = useRef<unknown[]>([])
  const running = useRef<AbortController | null>(null)
  const page = useRef(pathname)
  useEffect(() => {
    page.current = pathname
  }, [pathname])

  // The sheet lives as long as the shell; signing out unmounts it and stops any answer.
  useEffect(() => () => running.current?.abort(), [])

  const stop = useCallback(() => {
    running.current?.abort()
    running.current = null
    setBusy(false)
  }, [])

  /** Asks `text` in this conversation; false when there is nothing to ask or an answer is still coming. */
  const ask = useCallback(
    (text: string): boolean => {
      const question = text.trim()
      if (!question || running.current) return false
      const key = nextKey++
      const update = (change: (turn: Turn) => Turn) =>
        setTurns((list) => list.map((turn) => (turn.key === key ? change(turn) : turn)))
      setTurns((list) => [...list, { key, question, answer: '', status: null, drafts: [], error: null, pending: true }])
      const abort = new AbortController()
      running.current = abort
      setBusy(true)

      const onEvent = (event: AssistantEvent) => {
        switch (event.type) {
          case 'status':
            update((turn) => ({ ...turn, status: event.text }))
            break
          case 'text':
            update((turn) => ({ ...turn, answer: turn.answer + event.delta, status: null }))
            break
          case 'draft':
            update((turn) => ({ ...turn, drafts: [...turn.drafts, event.draft] }))
            break
          case 'done':
            conversation.current = event.conversation
            update((turn) => ({ ...turn, answer: event.answer || turn.answer, status: null, pending: false }))
            break
          case 'error':
            update((turn) => ({ ...turn, error: event.message, status: null, pending: false }))
            break
        }
      }

      askAssistant({ question, context: page.current, conversation: conversation.current }, onEvent, abort.signal)
        .catch((error: unknown) => {
          if (abort.signal.aborted) return
          const message = errorMessage(error)
          update((turn) => ({ ...turn, error: message, status: null, pending: false }))
        })
        .finally(() => {
          if (abort.signal.aborted) return
          update((turn) => (turn.pending ? { ...turn, status: null, pending: false } : turn))
          running.current = null
          setBusy(false)
          // The server stored the question (unless the school turned the history off).
          void invalidateRpc(queryClient, 'assistant.history')
        })
      return true
    },
    [queryClient],
  )

  /** Clears the conversation (stopping an answer still coming). */
  const reset = useCallback(() => {
    stop()
    conversation.current = []
    setTurns([])
  }, [stop])

  /** Shows a stored question and its answer, as the start of a new conversation. */
  const open = useCallback(
    (stored: StoredQuestion) => {
      reset()
      setTurns([
        {
          key: nextKey++,
          question: stored.question,
          answer: stored.answer ?? '',
          status: null,
          drafts: [],
          error: null,
          pending: false,
          askedAt: stored.createdAt,
          noAnswer: stored.answer === null,
        },
      ])
    },
    [reset],
  )

  /** Asks a stored question anew, in a new conversation. */
  const askAgain = useCallback(
    (question: string) => {
      reset()
      return ask(question)
    },
    [reset, ask],
  )

  return { turns, busy, ask, reset, open, askAgain }
}
