import { afterEach, describe, expect, it, vi } from 'vitest'

import { askAssistant, toAssistantEvent, type AssistantEvent } from './ask-assistant'

const streamOf = (parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part))
      controller.close()
    },
  })

const request = { question: 'who has not handed in?', context: '/notifications', conversation: [] }

describe('toAssistantEvent', () => {
  it('reads each kind of event and ignores the rest', () => {
    expect(toAssistantEvent('status', '{"text":"Looking up assignments…"}')).toEqual({ type: 'status', text: 'Looking up assignments…' })
    expect(toAssistantEvent('text', '{"delta":"Two pupils"}')).toEqual({ type: 'text', delta: 'Two pupils' })
    expect(
      toAssistantEvent(
        'draft',
        JSON.stringify({
          type: 'GENERAL',
          title: 'Fractions: work not handed in',
          body: 'Dear parent,\n\nPlease remind them.',
          students: [{ id: 's1', name: 'Amelia Smith' }, { name: 'no id' }],
          sendToPupil: false,
          sendToParent: true,
        }),
      ),
    ).toEqual({
      type: 'draft',
      draft: {
        type: 'GENERAL',
        title: 'Fractions: work not handed in',
        body: 'Dear parent,\n\nPlease remind them.',
        students: [{ id: 's1', name: 'Amelia Smith' }],
        sendToPupil: false,
        sendToParent: true,
      },
    })
    expect(toAssistantEvent('done', '{"id":null,"answer":"Done.","conversation":[{"role":"user"}]}')).toEqual({
      type: 'done',
      id: null,
      answer: 'Done.',
      conversation: [{ role: 'user' }],
    })
    expect(toAssistantEvent('error', '{"message":"The chat model did not answer."}')).toEqual({
      type: 'error',
      message: 'The chat model did not answer.',
    })
    expect(toAssistantEvent('other', '{}')).toBeNull()
    expect(toAssistantEvent('text', 'not json')).toBeNull()
    expect(toAssistantEvent('text', '{"delta":3}')).toBeNull()
  })
})

describe('askAssistant', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('posts the question with its page and conversation, and hands on each event', async () => {
    const fetchMock = vi.fn(
      async (_url: string, _init: RequestInit) =>
        new Response(
          streamOf([
            'event: status\ndata: {"text":"Looking up assignments…"}\n\nevent: text\ndata: {"delta":"Two "}\n',
            '\nevent: text\ndata: {"delta":"pupils."}\n\n',
            'event: done\ndata: {"id":"q1","answer":"Two pupils.","conversation":[1,2]}\n\n',
          ]),
          { status: 200, headers: { 'content-type': 'text/event-stream' } },
        ),
    )
    vi.stubGlobal('fetch', fetchMock)
    const seen: AssistantEvent[] = []
    await askAssistant({ ...request, conversation: [{ kept: true }] }, (event) => seen.push(event), new AbortController().signal)
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/api/assistant')
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin' })
    expect(init.headers).toEqual({ 'content-type': 'application/json', accept: 'text/event-stream' })
    expect(JSON.parse(String(init.body))).toEqual({
      question: 'who has not handed in?',
      context: '/notifications',
      conversation: [{ kept: true }],
    })
    expect(seen.map((e) => e.type)).toEqual(['status', 'text', 'text', 'done'])
    expect(seen.at(-1)).toEqual({ type: 'done', id: 'q1', answer: 'Two pupils.', conversation: [1, 2] })
  })

  it("rejects with the server's sentence when it refuses, or one by status", async () => {
    const sentence = 'Your question is too long: at most 2000 characters.'
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ error: sentence }), { status: 400 }))
    await expect(askAssistant(request, () => {}, new AbortController().signal)).rejects.toThrow(sentence)
    vi.stubGlobal('fetch', async () => new Response('', { status: 412 }))
    await expect(askAssistant(request, () => {}, new AbortController().signal)).rejects.toThrow('The AI assistant is not switched on for your school yet. Ask your administrator.')
    vi.stubGlobal('fetch', async () => new Response('', { status: 401 }))
    await expect(askAssistant(request, () => {}, new AbortController().signal)).rejects.toThrow(/Sign in again/)
  })

  it('ends quietly on an error event, and rejects when the stream breaks off', async () => {
    vi.stubGlobal(
      'fetch',
      async () => new Response(streamOf(['event: text\ndata: {"delta":"Two"}\n\nevent: error\ndata: {"message":"No."}\n\n']), { status: 200 }),
    )
    const seen: AssistantEvent[] = []
    await askAssistant(request, (event) => seen.push(event), new AbortController().signal)
    expect(seen.at(-1)).toEqual({ type: 'error', message: 'No.' })

    vi.stubGlobal('fetch', async () => new Response(streamOf(['event: text\ndata: {"delta":"Two"}\n\n']), { status: 200 }))
    await expect(askAssistant(request, () => {}, new AbortController().signal)).rejects.toThrow(/connection to the server was lost/)
  })

  it('says when the server cannot be reached, and passes an abort on', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(askAssistant(request, () => {}, new AbortController().signal)).rejects.toThrow(/could not be reached/)
    vi.stubGlobal('fetch', async () => {
      throw new DOMException('The operation was aborted.', 'AbortError')
    })
    await expect(askAssistant(request, () => {}, new AbortController().signal)).rejects.toMatchObject({ name: 'AbortError' })
  })
})
