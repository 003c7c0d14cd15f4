import { afterEach, describe, expect, it, vi } from 'vitest'

import { streamAutofill, toAutofillEvent, type AutofillEvent } from './ai-autofill'

describe('toAutofillEvent', () => {
  it('reads the three events and ignores the rest', () => {
    expect(toAutofillEvent('answer', '{"questionId":"a","text":"x","complete":true}')).toEqual({
      type: 'answer',
      questionId: 'a',
      text: 'x',
      complete: true,
    })
    expect(toAutofillEvent('done', '{"answers":{"a":""},"truncated":true}')).toEqual({
      type: 'done',
      answers: { a: '' },
      truncated: true,
    })
    expect(toAutofillEvent('error', '{"message":"The AI service answered: model crashed"}')).toEqual({
      type: 'error',
      message: 'The AI service answered: model crashed',
    })
    expect(toAutofillEvent('other', '{}')).toBeNull()
    expect(toAutofillEvent('answer', 'not json')).toBeNull()
  })
})

describe('streamAutofill', () => {
  afterEach(() => vi.unstubAllGlobals())

  const streamOf = (parts: string[]) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part))
        controller.close()
      },
    })

  it('posts to the task and hands on each event as it arrives', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          streamOf([
            'event: answer\ndata: {"questionId":"a","text":"Go","complete":false}\n',
            '\nevent: answer\ndata: {"questionId":"a","text":"Good","complete":true}\n\n',
            'event: done\ndata: {"answers":{"a":"Good","b":""},"truncated":false}\n\n',
          ]),
          { status: 200, headers: { 'content-type': 'text/event-stream' } },
        ),
    )
    vi.stubGlobal('fetch', fetchMock)
    const seen: AutofillEvent[] = []
    await streamAutofill('task/1', (event) => seen.push(event), new AbortController().signal)
    expect(fetchMock).toHaveBeenCalledWith('/api/tasks/task%2F1/autofill', expect.objectContaining({ method: 'POST' }))
    expect(seen.map((e) => e.type)).toEqual(['answer', 'answer', 'done'])
    expect(seen[1]).toEqual({ type: 'answer', questionId: 'a', text: 'Good', complete: true })
  })

  it("rejects with the server's sentence when it refuses, and when the stream breaks off", async () => {
    const message = 'AI autofill is not switched on for your school yet. Ask your administrator.'
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ error: message }), { status: 412 }))
    await expect(streamAutofill('t', () => {}, new AbortController().signal)).rejects.toThrow(message)
    vi.stubGlobal(
      'fetch',
      async () => new Response(streamOf(['event: answer\ndata: {"questionId":"a","text":"x","complete":false}\n\n']), { status: 200 }),
    )
    await expect(streamAutofill('t', () => {}, new AbortController().signal)).rejects.toThrow(/connection to the server was lost/)
  })
})
