//! /leaders/support (everyone in the leaders' area) and /support (admins of the pupil area):
//! help articles with a search, and a contact form that writes to support with a copy to
//! the sender (Pro marked as priority on the server).

import { zodResolver } from '@hookform/resolvers/zod'
import { useId, useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import Markdown from 'react-markdown'
import { useLocation } from 'react-router'

import { Section } from '@/components/section'
import { Alert } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { FormField } from '@/components/ui/form-field'
import { Input, Textarea } from '@/components/ui/input'
import { useToast } from '@/components/ui/toaster'
import { failureToast, setServerErrors } from '@/lib/form-errors'
import { isPro, useSession } from '@/lib/session'

import { contactSchema, MAX_MESSAGE, useContactSupport, type ContactValues } from '../api/contact-support'
import { loadArticles, searchArticles, type Article } from '../articles'

const ARTICLES = loadArticles()

function ArticleView({ article }: { article: Article }) {
  const headingId = useId()
  return (
    <article aria-labelledby={headingId} className="space-y-3">
      <h3 id={headingId} className="text-xl font-semibold">
        {article.title}
      </h3>
      <div className="help-article space-y-3 text-sm leading-relaxed [&_h2]:mt-4 [&_h2]:text-base [&_h2]:font-semibold [&_ol]:list-decimal [&_ol]:space-y-1 [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:space-y-1 [&_ul]:pl-6">
        <Markdown
          components={{
            // Article headings sit under the article's h3.
            h1: ({ children }) => <h4 className="font-semibold">{children}</h4>,
            h2: ({ children }) => <h4 className="mt-4 font-semibold">{children}</h4>,
            h3: ({ children }) => <h5 className="font-semibold">{children}</h5>,
          }}
        >
          {article.body}
        </Markdown>
      </div>
    </article>
  )
}

function HelpArticles() {
  const [query, setQuery] = useState('')
  const [openId, setOpenId] = useState<string | null>(null)
  const hits = useMemo(() => searchArticles(ARTICLES, query), [query])
  const open = hits.find((article) => article.id === openId) ?? null
  const searchId = useId()
  return (
    <Section title="Help articles">
      <div className="space-y-1.5">
        <label htmlFor={searchId} className="text-sm font-medium">
          Search help
        </label>
        <Input
          id={searchId}
          type="search"
          value={query}
          placeholder="For example: password, dictation, templates"
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      <p className="text-sm text-muted-foreground" role="status">
        {hits.length === 0
          ? 'No article matches your search. Try other words, or write to us below.'
          : `${hits.length} ${hits.length === 1 ? 'article' : 'articles'}`}
      </p>
      <div className="grid gap-6 md:grid-cols-[minmax(0,18rem)_1fr]">
        <ul className="space-y-1" aria-label="Articles">
          {hits.map((article) => (
            <li key={article.id}>
              <button
                type="button"
                aria-current={open?.id === article.id ? 'true' : undefined}
                onClick={() => setOpenId(article.id)}
                className="w-full rounded-md px-3 py-2 text-left text-sm hover:bg-muted focus-visible:ring-3 focus-visible:ring-ring focus-visible:outline-none aria-[current=true]:bg-muted aria-[current=true]:font-semibold"
              >
                {article.title}
              </button>
            </li>
          ))}
        </ul>
        <div>
          {open ? (
            <ArticleView article={open} />
          ) : (
            hits.length > 0 && <p className="text-sm text-muted-foreground">Choose an article to read it.</p>
          )}
        </div>
      </div>
    </Section>
  )
}

function ContactForm() {
  const { session } = useSession()
  const location = useLocation()
  const { toast } = useToast()
  const contact = useContactSupport()
  const [sent, setSent] = useState<{ supportEmail: string; copyTo: string; priority: boolean } | null>(null)
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ContactValues>({ resolver: zodResolver(contactSchema), defaultValues: { subject: '', message: '' } })
  const messageLength = watch('message').length
  const pro = session ? isPro(session.user) : false

  const onSubmit = handleSubmit(async (values) => {
    setSent(null)
    try {
      const result = await contact.mutateAsync({ subject: values.subject, message: values.message, page: location.pathname })
      setSent(result)
      reset()
    } catch (error) {
      if (!setServerErrors(error, setError, ['subject', 'message'])) toast(failureToast(error))
    }
  })

  return (
    <Section title="Contact support">
      <p className="text-sm text-muted-foreground">
        Write to us and we will answer by e-mail. We send you a copy of your message.
        {pro && ' As a Pro customer, your message is marked as priority.'}
      </p>
      {sent && (
        <Alert tone="success">
          Your message has been sent to {sent.supportEmail}. A copy is on its way to {sent.copyTo}.
        </Alert>
      )}
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Contact support">
        <FormField label="Subject" error={errors.subject?.message}>
          <Input maxLength={200} {...register('subject')} />
        </FormField>
        <FormField label="Message" error={errors.message?.message} hint={`${messageLength} of ${MAX_MESSAGE} characters`}>
          <Textarea rows={7} {...register('message')} />
        </FormField>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Sending…' : 'Send message'}
        </Button>
      </form>
    </Section>
  )
}

export function SupportPage() {
  const { pathname } = useLocation()
  const title = pathname.startsWith('/leaders') ? 'Support' : 'Help & Support'
  return (
    <div className="space-y-6">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <HelpArticles />
      <ContactForm />
    </div>
  )
}
