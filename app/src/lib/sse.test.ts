import { describe, expect, it } from 'vitest'

import { eventJson, parseEventBlock, readEventStream, SseParser, type SseEvent } from './sse'

const streamOf = (parts: string[]) =>
  new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      for (const part of parts) controller.enqueue(new TextEncoder().encode(part))
      controller.close()
    },
  })

describe('parseEventBlock', () => {
  it('reads the name and joins data lines, skipping comments', () => {
    expect(parseEventBlock('event: progress\ndata: {"step":2}')).toEqual({ event: 'progress', data: '{"step":2}' })
    expect(parseEventBlock(': note\ndata:a\ndata: b')).toEqual({ event: 'message', data: 'a\nb' })
    expect(parseEventBlock(':keep-alive')).toBeNull()
    expect(parseEventBlock('event: done')).toBeNull()
  })
})

describe('SseParser', () => {
  it('reads events cut anywhere, skipping comments', () => {
    const parser = new SseParser()
    const text =
      ': keep-alive\n\nevent: answer\ndata: {"questionId":"a","text":"Hel","complete":false}\n\n' +
      'event: done\r\ndata: {"answers":{"a":"Hello"},"truncated":false}\r\n\r\n'
    const events = []
    for (let i = 0; i < text.length; i += 5) events.push(...parser.push(text.slice(i, i + 5)))
    expect(events).toEqual([
      { event: 'answer', data: '{"questionId":"a","text":"Hel","complete":false}' },
      { event: 'done', data: '{"answers":{"a":"Hello"},"truncated":false}' },
    ])
  })

  it('does not take a CRLF cut in two for a blank line', () => {
    const parser = new SseParser()
    expect(parser.push('event: text\r')).toEqual([])
    expect(parser.push('\ndata: {"delta":"a"}\r')).toEqual([])
    expect(parser.push('\n\r\n')).toEqual([{ event: 'text', data: '{"delta":"a"}' }])
  })

  it('keeps an unfinished event for the next piece, and gives it up at the end', () => {
    const parser = new SseParser()
    expect(parser.push('event: text\ndata: {"delta":"a"}\n\nevent: te')).toEqual([{ event: 'text', data: '{"delta":"a"}' }])
    expect(parser.push('xt\ndata: {"delta":"b"}\n')).toEqual([])
    expect(parser.flush()).toEqual([{ event: 'text', data: '{"delta":"b"}' }])
    expect(parser.flush()).toEqual([])
  })
})

describe('readEventStream', () => {
  it('hands on each event as it arrives, and a last one without its blank line', async () => {
    const seen: SseEvent[] = []
    await readEventStream(
      streamOf(['event: status\ndata: {"text":"Loo', 'king"}\n\nevent: text\ndata: {"delta":"Hi"}\n', '\nevent: done\ndata: {}']),
      (event) => seen.push(event),
    )
    expect(seen).toEqual([
      { event: 'status', data: '{"text":"Looking"}' },
      { event: 'text', data: '{"delta":"Hi"}' },
      { event: 'done', data: '{}' },
    ])
  })

  it('decodes characters cut between chunks', async () => {
    const bytes = new TextEncoder().encode('event: text\ndata: {"delta":"Looking up…"}\n\n')
    const cut = bytes.indexOf(0xe2) + 1
    const seen: SseEvent[] = []
    await readEventStream(
      new ReadableStream<Uint8Array<ArrayBuffer>>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut))
          controller.enqueue(bytes.slice(cut))
          controller.close()
        },
      }),
      (event) => seen.push(event),
    )
    expect(seen).toEqual([{ event: 'text', data: '{"delta":"Looking up…"}' }])
  })
})

describe('eventJson', () => {
  it('gives the object, or null for anything else', () => {
    expect(eventJson('{"a":1}')).toEqual({ a: 1 })
    expect(eventJson('[1]')).toBeNull()
    expect(eventJson('not json')).toBeNull()
  })
})
