//! The comment bank in any feedback box (docs/comment-bank.md):
//! - `CommentBankField`: a textarea with typeahead. After three letters of the words being
//!   typed (`lib/comment-bank` `typedFragment`) it asks `commentBank.search` (debounced; a
//!   stale answer is dropped) and shows the matches in a listbox under the field (the ARIA
//!   combobox pattern). ArrowUp/ArrowDown move, Enter or Tab insert the active comment in
//!   place of the typed words (its `{name}` filled with the pupil's first name) and count
//!   the use (`commentBank.use`), Escape closes. With the list closed Enter and Tab do what
//!   they always do. Takes react-hook-form's `register(...)` result or `value`/`onChange`,
//!   and the `id`/`aria-*` that `FormField` passes.
//! - `SaveToCommentBankButton`: 'Save to comment bank' for a feedback text and sentiment.
//! - `CommentBankSuggestion`: "Add “…” to your comment bank?" with Add and Not now, for the
//!   three-times rule's pending suggestions (`commentBank.suggestions`).

import {
  useCallback,
  useEffect,
  useId,
  useReducer,
  useRef,
  useState,
  type ChangeEvent,
  type ComponentProps,
  type KeyboardEvent,
  type Ref,
} from 'react'

import { Button } from '@/components/ui/button'
import { Textarea } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import type { BankCommentView } from '@/generated/rpc-types'
import { insertComment, moveActive, SENTIMENT_LABELS, typedFragment } from '@/lib/comment-bank'
import {
  recordCommentUse,
  searchComments,
  useAcceptSuggestion,
  useCommentBankSuggestions,
  useDismissSuggestion,
  useSaveToCommentBank,
} from '@/lib/comment-bank-api'
import { errorMessage, fieldErrors } from '@/lib/rpc'
import { cn } from '@/lib/utils'

/** How long typing must pause before the typeahead asks, in milliseconds. */
export const SEARCH_DEBOUNCE_MS = 150

export { COMMENT_BANK_SUGGESTIONS_KEY } from '@/lib/comment-bank-api'

export type Sentiment = keyof typeof SENTIMENT_LABELS

/** The typeahead's state: the matches shown, the active one, and the fragment they replace. */
export interface TypeaheadState {
  open: boolean
  options: BankCommentView[]
  active: number
  /** Where the typed fragment starts and ends (the caret) when the options were asked for. */
  start: number
  end: number
}

export type TypeaheadAction =
  | { type: 'results'; options: BankCommentView[]; start: number; end: number }
  | { type: 'move'; key: 'ArrowDown' | 'ArrowUp' }
  | { type: 'close' }

export const CLOSED: TypeaheadState = { open: false, options: [], active: -1, start: 0, end: 0 }

/** The typeahead's transitions: results open the list with the first option active. */
export function typeaheadReducer(state: TypeaheadState, action: TypeaheadAction): TypeaheadState {
  switch (action.type) {
    case 'results':
      if (action.options.length === 0) return CLOSED
      return { open: true, options: action.options, active: 0, start: action.start, end: action.end }
    case 'move':
      if (!state.open) return state
      return { ...state, active: moveActive(state.active, state.options.length, action.key) }
    case 'close':
      return state.open ? CLOSED : state
  }
}

/**
 * Asks `search` for the latest query only: calls within `delayMs` of each other collapse into
 * the last, and an answer to an older query than the latest one asked is dropped.
 */
export function createSearcher<T>(
  search: (query: string) => Promise<T>,
  onAnswer: (answer: T, query: string) => void,
  delayMs = SEARCH_DEBOUNCE_MS,
) {
  let timer: ReturnType<typeof setTimeout> | undefined
  let latest = 0
  return {
    ask(query: string) {
      if (timer) clearTimeout(timer)
      const ticket = ++latest
      timer = setTimeout(() => {
        timer = undefined
        search(query).then(
          (answer) => {
            if (ticket === latest) onAnswer(answer, query)
          },
          () => undefined,
        )
      }, delayMs)
    },
    /** Drops the pending ask and any answer still on its way. */
    cancel() {
      if (timer) clearTimeout(timer)
      timer = undefined
      latest++
    },
  }
}

type TextareaProps = Omit<ComponentProps<'textarea'>, 'value' | 'defaultValue' | 'onChange' | 'ref'>

export interface CommentBankFieldProps extends TextareaProps {
  /** The pupil's first name, for `{name}`. */
  pupilFirstName?: string
  /** Controlled use: the text. Leave out with react-hook-form's `register`. */
  value?: string
  /** `register(...)`'s `onChange`, or a controlled field's handler (reads `event.target.value`). */
  onChange?: (event: ChangeEvent<HTMLTextAreaElement>) => void
  /** `register(...)`'s `ref`, or any ref to the textarea. */
  ref?: Ref<HTMLTextAreaElement>
}

function assignRef<T>(ref: Ref<T> | undefined, value: T | null) {
  if (typeof ref === 'function') ref(value)
  else if (ref) (ref as { current: T | null }).current = value
}

export function CommentBankField({
  pupilFirstName,
  onChange,
  onKeyDown,
  onBlur,
  ref,
  className,
  ...textarea
}: CommentBankFieldProps) {
  const listId = useId()
  const element = useRef<HTMLTextAreaElement | null>(null)
  const [state, dispatch] = useReducer(typeaheadReducer, CLOSED)
  const [searcher] = useState(() =>
    createSearcher(
      searchComments,
      (options) => {
        const el = element.current
        if (!el) return
        const caret = el.selectionStart ?? el.value.length
        const fragment = typedFragment(el.value, caret)
        // The text moved on while the answer was on its way: wait for the next one.
        if (!fragment) return dispatch({ type: 'close' })
        dispatch({ type: 'results', options, start: fragment.start, end: caret })
      },
    ),
  )
  useEffect(() => () => searcher.cancel(), [searcher])

  const setRefs = useCallback(
    (el: HTMLTextAreaElement | null) => {
      element.current = el
      assignRef(ref, el)
    },
    [ref],
  )

  const handleChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    onChange?.(event)
    const el = event.target
    const fragment = typedFragment(el.value, el.selectionStart ?? el.value.length)
    if (fragment) searcher.ask(fragment.text)
    else {
      searcher.cancel()
      dispatch({ type: 'close' })
    }
  }

  const insert = (option: BankCommentView) => {
    const el = element.current
    if (!el) return
    const { value, caret } = insertComment(el.value, state.start, state.end, option.text, pupilFirstName)
    searcher.cancel()
    dispatch({ type: 'close' })
    el.value = value
    el.setSelectionRange(caret, caret)
    // The same event shape react-hook-form and a controlled parent read.
    onChange?.({ target: el, currentTarget: el, type: 'change' } as ChangeEvent<HTMLTextAreaElement>)
    el.focus()
    recordCommentUse(option.id)
  }

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (state.open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        dispatch({ type: 'move', key: event.key })
        return
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && !event.ctrlKey && !event.metaKey) {
        const option = state.options[state.active]
        if (option) {
          event.preventDefault()
          insert(option)
          return
        }
      }
      if (event.key === 'Escape') {
        event.preventDefault()
        event.stopPropagation()
        searcher.cancel()
        dispatch({ type: 'close' })
        return
      }
    }
    onKeyDown?.(event)
  }

  const activeId = state.open && state.active >= 0 ? `${listId}-${state.active}` : undefined
  return (
    <div className="relative">
      <Textarea
        {...textarea}
        ref={setRefs}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={state.open}
        aria-controls={listId}
        aria-activedescendant={activeId}
        onChange={handleChange}
        onKeyDown={handleKeyDown}
        onBlur={(event) => {
          dispatch({ type: 'close' })
          onBlur?.(event)
        }}
        className={className}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="Comment bank"
        hidden={!state.open}
        className="absolute inset-x-0 top-full z-20 mt-1 max-h-72 overflow-y-auto rounded-md border border-border bg-background p-1 shadow-lg"
      >
        {state.open &&
          state.options.map((option, index) => (
            <li
              key={option.id}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === state.active}
              // Keep the focus (and the caret) in the textarea.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => insert(option)}
              className={cn(
                'flex cursor-pointer items-start justify-between gap-3 rounded-sm px-3 py-2 text-sm',
                index === state.active && 'bg-muted',
              )}
            >
              <span className="min-w-0 break-words">{option.text}</span>
              <span className="shrink-0 text-xs text-muted-foreground">
                {SENTIMENT_LABELS[option.sentiment]}
                {option.shelf === 'SCHOOL' ? ' · School' : ''}
              </span>
            </li>
          ))}
      </ul>
    </div>
  )
}

/** 'Save to comment bank': adds `text` (with `sentiment`) to the caller's personal bank. */
export function SaveToCommentBankButton({
  text,
  sentiment,
  className,
}: {
  text: string
  sentiment: Sentiment
  className?: string
}) {
  const { toast } = useToast()
  const add = useSaveToCommentBank()
  const save = async () => {
    try {
      await add.mutateAsync({ text: text.trim(), sentiment, tags: [], school: false })
      toast({ title: 'Saved to your comment bank.', tone: 'success' })
    } catch (error) {
      const fields = fieldErrors(error)
      toast({ title: 'Not saved', description: fields.text ?? errorMessage(error), tone: 'error' })
    }
  }
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      className={className}
      disabled={add.isPending || text.trim() === ''}
      onClick={save}
    >
      Save to comment bank
    </Button>
  )
}

/**
 * The first pending suggestion of the three-times rule, if any: "Add “…” to your comment
 * bank?" with Add (into the personal bank) and Not now (never asked again). Refresh
 * [`COMMENT_BANK_SUGGESTIONS_KEY`] after a mark is saved.
 */
export function CommentBankSuggestion({ className }: { className?: string }) {
  const { toast } = useToast()
  const suggestions = useCommentBankSuggestions()
  const accept = useAcceptSuggestion()
  const dismiss = useDismissSuggestion()
  const suggestion = suggestions.data?.[0]
  if (!suggestion) return null
  const busy = accept.isPending || dismiss.isPending
  const answer = async (add: boolean) => {
    try {
      if (add) {
        await accept.mutateAsync({ id: suggestion.id, sentiment: null })
        toast({ title: 'Added to your comment bank.', tone: 'success' })
      } else {
        await dismiss.mutateAsync({ id: suggestion.id })
      }
    } catch (error) {
      toast({ title: 'Something went wrong', description: errorMessage(error), tone: 'error' })
    }
  }
  return (
    <div
      role="region"
      aria-label="Comment bank suggestion"
      className={cn('flex flex-wrap items-center gap-3 rounded-md border border-border bg-muted/50 p-3 text-sm', className)}
    >
      <p className="min-w-0 flex-1">Add “{suggestion.text}” to your comment bank?</p>
      <div className="flex gap-2">
        <Button type="button" size="sm" disabled={busy} onClick={() => answer(true)}>
          Add
        </Button>
        <Button type="button" size="sm" variant="outline" disabled={busy} onClick={() => answer(false)}>
          Not now
        </Button>
      </div>
    </div>
  )
}
