import { afterEach, describe, expect, it, vi } from 'vitest'

import { generateReport, toReportEvent, type ReportEvent } from './generate-report'

describe('the report stream', () => {
  it('reads each kind of event', () => {
    expect(toReportEvent('progress', '{"step":2,"of":3,"label":"Summarising task 2 of 2"}')).toEqual({
      type: 'progress',
      step: 2,
      of: 3,
      label: 'Summarising task 2 of 2',
    })
    expect(toReportEvent('text', '{"delta":"# Hi"}')).toEqual({ type: 'text', delta: '# Hi' })
    expect(toReportEvent('done', '{}')).toEqual({ type: 'done' })
    expect(toReportEvent('error', '{"message":"No."}')).toEqual({ type: 'error', message: 'No.' })
    expect(toReportEvent('other', '{}')).toBeNull()
    expect(toReportEvent('text', 'not json')).toBeNull()
  })
})

describe('generateReport', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('hands on each event as it arrives, the last one even without its blank line', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of ['event: text\ndata: {"delta":"a"}\n\nevent: te', 'xt\ndata: {"delta":"b"}\n\nevent: done\ndata: {}'])
          controller.enqueue(new TextEncoder().encode(part))
        controller.close()
      },
    })
    vi.stubGlobal('fetch', async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }))
    const seen: ReportEvent[] = []
    await generateReport({ taskIds: [], voiceNoteIds: [], instructions: '', title: '' }, (event) => seen.push(event))
    expect(seen).toEqual([{ type: 'text', delta: 'a' }, { type: 'text', delta: 'b' }, { type: 'done' }])
  })
})
