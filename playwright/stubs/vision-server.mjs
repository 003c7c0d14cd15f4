// A stub OpenAI-compatible vision server for the end-to-end tests: POST /v1/chat/completions
// with the real request shape (Bearer key, messages with text and image_url data-URL parts)
// answers a real `chat.completion` object. What it was sent is kept so tests can check it:
// GET /requests returns the last requests (with their images), DELETE /requests clears them.
// A prompt containing "FAIL" gets OpenAI's error envelope with status 500. With the notes
// mode's system prompt ("You turn photos into notes…") the answer is notes
// (`Notes from N photos:` and two bullet points) instead of feedback; each request records
// its `mode` ('notes' or 'feedback').
//
// Text chat (a user message whose content is a string, no image) is answered too, for AI
// autofill and AI Formatting, with and without `stream: true` and `response_format`:
// * autofill (a prompt with a "Questions:" list of `qN: text` lines): a JSON object with one
//   key per question, deterministically `For qN: <question text> (from the task's content).`,
//   and "" for a question whose text mentions the weather (no content covers it);
// * AI Formatting (system prompt "You tidy…"): `Tidied: <the answer>`;
// * the report generator (system prompt "You write reports…"): a Markdown report titled as
//   asked, listing each `### Task: …` / `### Voice note: …` source of the prompt; a
//   per-source summary ("You summarise…"): `Summary: <the start of the source>`;
// * a translation ("You translate … into <Language>."): `{title, body, notice}` (or
//   `{text, notice}` for feedback), Polish with a few real words, tags and links kept;
// * a prompt containing "FAIL": 500 (not streamed) or, streamed, a few pieces and then an
//   `{"error"}` event ("The model crashed mid-answer.");
// * streamed answers arrive in 7-character pieces every 15 ms (cut mid-word and mid-JSON),
//   then a finish chunk, a usage-only chunk and `data: [DONE]`;
// * STUB_CHAT_FORMATS=none makes it refuse any `response_format` with 400 (as older
//   servers do), so the client's fallback to no `response_format` is exercised.
// * the AI assistant (system prompt "You are Voicemark's assistant", with `tools` in
//   OpenAI's function-calling format): a scripted agent, streamed (or not) the real way, tool
//   calls included (the first chunk names the function, the arguments follow in pieces, then
//   `finish_reason: "tool_calls"`):
//   - last message a user's with "not handed in": calls `hand_ins` {title: the word before
//     "assignment"};
//   - last message a user's with "message" and "parent": calls `draft_message` for the pupils
//     of the newest earlier `hand_ins` result (`notHandedIn`), to their parents;
//   - last message a tool result: says what it found (`hand_ins`: who has not handed in;
//     `draft_message`: that the message is drafted; `{error}`: that it could not look it up);
//   - otherwise: what it can answer questions about.
//   Tool messages must answer an earlier assistant tool call, and every tool call must be
//   answered, or it refuses with 400 as OpenAI does.
// GET /chat-requests returns the text requests ({model, kind, stream, responseFormat,
// system, prompt}, plus {tools, lastRole, reply} for the assistant); DELETE /chat-requests
// clears them.
//
//   node stubs/vision-server.mjs --port 3108
import http from 'node:http'

const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 3108)
const KEY = process.env.STUB_VISION_KEY ?? 'stub-vision-key'
const requests = []
const chatRequests = []
const REFUSE_FORMATS = process.env.STUB_CHAT_FORMATS === 'none'

/** The autofill answers for the `qN: text` lines of `prompt`, as JSON text. */
function formAnswers(prompt) {
  const questions = (prompt.split('Questions:\n')[1] ?? '').split('\n\n')[0]
  const answers = {}
  for (const line of questions.split('\n')) {
    const at = line.indexOf(': ')
    if (at < 1) continue
    const key = line.slice(0, at)
    const text = line.slice(at + 2)
    answers[key] = /weather/i.test(text) ? '' : `For ${key}: ${text} (from the task's content).`
  }
  return JSON.stringify(answers)
}

/**
 * A report in Markdown naming each source the prompt carried (`### Task: …` and
 * `### Voice note: …` headings), so a test can see which sources reached the model.
 */
function reportFrom(prompt) {
  const title = (prompt.match(/^Report title: (.*)$/m)?.[1] ?? 'Report').replace('(choose a fitting title)', 'Report')
  const sources = [...prompt.matchAll(/^### (Task|Voice note): (.*)$/gm)].map((m) => `- ${m[1]}: ${m[2]}`)
  return `# ${title}\n\n## Sources\n\n${sources.join('\n')}\n\n## Summary\n\nThe sources were read by the stub model.\n`
}

function chunk(model, delta, finish = null) {
  const body = {
    id: 'chatcmpl-stub',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    system_fingerprint: 'fp_stub',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  }
  return `data: ${JSON.stringify(body)}\n\n`
}

/**
 * A translation (system prompt "You translate … from English into <Language>."): the JSON
 * the prompt asks for. Polish gets a few real words so a test can tell it apart; other
 * languages are marked with their name. Tags and links of the body are kept.
 */
function translation(system, prompt) {
  const language = /from English into ([^.]+)\./.exec(system)?.[1] ?? '?'
  const polish = language === 'Polish'
  const notice = polish
    ? 'Ta wiadomość została przetłumaczona automatycznie. Oryginał (po angielsku) znajduje się poniżej.'
    : `Translated automatically into ${language}.`
  if (system.startsWith("You translate a teacher's feedback")) {
    return JSON.stringify({ text: `${polish ? 'Po polsku' : language}: ${prompt}`, notice })
  }
  let source = {}
  try {
    source = JSON.parse(prompt)
  } catch {}
  return JSON.stringify({
    title: `${polish ? 'Zadanie' : language}: ${source.title ?? ''}`,
    body: `<p>${polish ? 'Wiadomość po polsku.' : `In ${language}.`}</p>${source.body ?? ''}`,
    notice,
  })
}

/** A text request (autofill, AI Formatting, a report or a translation). */
function chat(res, body) {
  const system = (body.messages ?? []).find((m) => m.role === 'system')?.content ?? ''
  const prompt = (body.messages ?? []).find((m) => m.role === 'user')?.content ?? ''
  const format = body.response_format?.type ?? null
  const kind = system.startsWith('You tidy')
    ? 'format'
    : system.startsWith('You translate')
      ? 'translate'
    : system.startsWith('You write reports')
      ? 'report'
      : system.startsWith('You summarise')
        ? 'summary'
        : 'autofill'
  chatRequests.push({ model: body.model, kind, stream: body.stream === true, responseFormat: format, system, prompt })
  if (chatRequests.length > 50) chatRequests.shift()
  if (format && REFUSE_FORMATS)
    return error(res, 400, `Invalid parameter: 'response_format' of type '${format}' is not supported with this model.`)
  const fail = prompt.includes('FAIL')
  const content =
    kind === 'translate'
      ? translation(system, prompt)
      : kind === 'format'
      ? `Tidied: ${(prompt.split('The answer to tidy:\n')[1] ?? '').trim()}`
      : kind === 'report'
        ? reportFrom(prompt)
        : kind === 'summary'
          ? `Summary: ${prompt.slice(0, 200)}`
          : formAnswers(prompt)
  if (body.stream !== true) {
    if (fail) return error(res, 500, 'The model crashed mid-answer.', 'api_error')
    return send(res, 200, {
      id: 'chatcmpl-stub',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      system_fingerprint: 'fp_stub',
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 200, completion_tokens: 80, total_tokens: 280 },
    })
  }
  const pieces = content.match(/[\s\S]{1,7}/g) ?? []
  const events = [chunk(body.model, { role: 'assistant', content: '' })]
  for (const piece of fail ? pieces.slice(0, 3) : pieces) events.push(chunk(body.model, { content: piece }))
  if (fail) {
    events.push(`data: ${JSON.stringify({ error: { message: 'The model crashed mid-answer.', type: 'api_error' } })}\n\n`)
  } else {
    events.push(chunk(body.model, {}, 'stop'))
    events.push(`data: ${JSON.stringify({ id: 'chatcmpl-stub', object: 'chat.completion.chunk', model: body.model, choices: [], usage: { prompt_tokens: 200, completion_tokens: 80, total_tokens: 280 } })}\n\n`)
    events.push('data: [DONE]\n\n')
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  let i = 0
  const next = () => {
    if (res.destroyed) return
    if (i >= events.length) return res.end()
    res.write(events[i++])
    setTimeout(next, 15)
  }
  next()
}

// --- The AI assistant's scripted agent ---

const ASSISTANT_SYSTEM = "You are Voicemark's assistant"
const ASSISTANT_DEFAULT = 'I can answer questions about your classes, assignments, submissions and feedback.'

/** The text of a message's content: a string, or OpenAI's list of parts. */
function textOf(content) {
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.filter((p) => p?.type === 'text').map((p) => p.text ?? '').join('\n')
  return ''
}

function isAssistantRequest(body) {
  const system = textOf((body.messages ?? []).find((m) => m?.role === 'system')?.content)
  return system.startsWith(ASSISTANT_SYSTEM) && Array.isArray(body.tools)
}

function parseJson(text) {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** OpenAI's checks on a conversation with tools; the message of its 400, or null. */
function toolProblems(body) {
  for (const tool of body.tools) {
    if (tool?.type !== 'function' || typeof tool.function?.name !== 'string')
      return "Invalid value for 'tools': each tool must be {type: 'function', function: {name, parameters}}."
  }
  const messages = body.messages ?? []
  const called = new Set()
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]
    if (message?.role === 'tool') {
      if (!called.has(message.tool_call_id))
        return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
      continue
    }
    if (message?.role !== 'assistant' || !Array.isArray(message.tool_calls) || message.tool_calls.length === 0) continue
    const ids = message.tool_calls.map((call) => call?.id)
    ids.forEach((id) => called.add(id))
    const answered = new Set()
    for (let j = i + 1; j < messages.length && messages[j]?.role === 'tool'; j++) answered.add(messages[j].tool_call_id)
    const missing = ids.filter((id) => !answered.has(id))
    if (missing.length > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`
  }
  return null
}

/** The function an earlier assistant message called with this id. */
function calledFunction(messages, toolCallId) {
  for (const message of messages) {
    for (const call of message?.tool_calls ?? []) if (call?.id === toolCallId) return call.function?.name
  }
  return undefined
}

const names = (list) => list.map((entry) => entry?.name ?? '').join(', ')

/** What the scripted agent does next: `{tool, arguments}` or `{text}`. */
function assistantReply(body) {
  const messages = body.messages ?? []
  const offered = new Set(body.tools.map((tool) => tool.function.name))
  const call = (tool, args) =>
    offered.has(tool) ? { tool, arguments: JSON.stringify(args) } : { text: `The stub has no ${tool} tool to call.` }
  const last = messages.at(-1)
  if (last?.role === 'user') {
    const text = textOf(last.content)
    const lower = text.toLowerCase()
    if (lower.includes('not handed in')) {
      const title = /([\p{L}\p{N}'-]+)\s+assignment/iu.exec(text)?.[1] ?? ''
      return call('hand_ins', { title })
    }
    if (lower.includes('message') && lower.includes('parent')) {
      const result = messages
        .slice(0, -1)
        .filter((m) => m?.role === 'tool')
        .map((m) => parseJson(textOf(m.content)))
        .filter((content) => Array.isArray(content?.notHandedIn))
        .at(-1)
      if (result) {
        const title = result.notification?.title ?? ''
        return call('draft_message', {
          type: 'GENERAL',
          title: `${title}: work not handed in`,
          body: `Dear parent,\n\nYour child has not yet handed in ${title}. Please remind them to hand it in.\n\nThank you.`,
          studentIds: result.notHandedIn.map((pupil) => pupil.studentId),
          sendToParent: true,
          sendToPupil: false,
        })
      }
    }
  }
  if (last?.role === 'tool') {
    const content = parseJson(textOf(last.content))
    const tool = calledFunction(messages, last.tool_call_id)
    if (content && typeof content === 'object' && 'error' in content) {
      const error = typeof content.error === 'string' ? content.error : JSON.stringify(content.error)
      return { text: `I could not look that up: ${error}` }
    }
    if (tool === 'hand_ins' || (!tool && Array.isArray(content?.notHandedIn))) {
      const title = content?.notification?.title ?? ''
      const missing = Array.isArray(content?.notHandedIn) ? content.notHandedIn : []
      if (missing.length === 0) return { text: `Everyone has handed in ${title}.` }
      const n = missing.length
      return { text: `${n} ${n === 1 ? 'pupil has' : 'pupils have'} not handed in ${title}: ${names(missing)}.` }
    }
    if (tool === 'draft_message' || (!tool && Array.isArray(content?.students))) {
      const pupils = Array.isArray(content?.students) ? content.students : []
      return {
        text: `I have drafted a message to the parents of ${names(pupils)}. Open it in the editor to check it and send it.`,
      }
    }
  }
  return { text: ASSISTANT_DEFAULT }
}

/** Streams SSE `events` 15 ms apart, then ends the response. */
function streamEvents(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  let i = 0
  const next = () => {
    if (res.destroyed) return
    if (i >= events.length) return res.end()
    res.write(events[i++])
    setTimeout(next, 15)
  }
  next()
}

/** A request of the AI assistant: answered by the scripted agent above. */
function assistant(res, body) {
  const reply = assistantReply(body)
  const last = (body.messages ?? []).at(-1)
  chatRequests.push({
    model: body.model,
    kind: 'assistant',
    stream: body.stream === true,
    responseFormat: body.response_format?.type ?? null,
    system: textOf((body.messages ?? []).find((m) => m?.role === 'system')?.content),
    prompt: textOf(last?.content),
    tools: body.tools.map((tool) => tool.function.name),
    lastRole: last?.role ?? null,
    reply: reply.tool ? { tool: reply.tool, arguments: reply.arguments } : { text: reply.text },
  })
  if (chatRequests.length > 50) chatRequests.shift()
  const id = `chatcmpl-stub-${Math.random().toString(36).slice(2, 10)}`
  const callId = `call_${Math.random().toString(36).slice(2, 14)}`
  const usage = { prompt_tokens: 300, completion_tokens: 40, total_tokens: 340 }
  if (body.stream !== true) {
    const message = reply.tool
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: callId, type: 'function', function: { name: reply.tool, arguments: reply.arguments } }],
          refusal: null,
        }
      : { role: 'assistant', content: reply.text, refusal: null }
    return send(res, 200, {
      id,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: body.model,
      system_fingerprint: 'fp_stub',
      choices: [{ index: 0, message, logprobs: null, finish_reason: reply.tool ? 'tool_calls' : 'stop' }],
      usage,
    })
  }
  const piece = (delta, finish = null) => chunk(body.model, delta, finish).replace('"chatcmpl-stub"', JSON.stringify(id))
  const events = []
  if (reply.tool) {
    events.push(
      piece({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: reply.tool, arguments: '' } }],
      }),
    )
    // The arguments arrive cut anywhere (mid-key, mid-string), in at least two pieces.
    const size = Math.max(1, Math.min(9, Math.floor(reply.arguments.length / 2)))
    for (const part of reply.arguments.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [])
      events.push(piece({ tool_calls: [{ index: 0, function: { arguments: part } }] }))
    events.push(piece({}, 'tool_calls'))
  } else {
    events.push(piece({ role: 'assistant', content: '' }))
    for (const part of reply.text.match(/[\s\S]{1,4}/g) ?? []) events.push(piece({ content: part }))
    events.push(piece({}, 'stop'))
  }
  events.push('data: [DONE]\n\n')
  streamEvents(res, events)
}

function send(res, status, body) {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

function error(res, status, message, type = 'invalid_request_error') {
  send(res, status, { error: { message, type, param: null, code: null } })
}

http
  .createServer((req, res) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => {
      if (req.method === 'GET' && req.url === '/health') return send(res, 200, { ok: true })
      if (req.method === 'GET' && req.url === '/requests') return send(res, 200, requests)
      if (req.method === 'GET' && req.url === '/chat-requests') return send(res, 200, chatRequests)
      if (req.method === 'DELETE' && req.url === '/chat-requests') {
        chatRequests.length = 0
        return send(res, 200, { ok: true })
      }
      if (req.method === 'DELETE' && req.url === '/requests') {
        requests.length = 0
        return send(res, 200, { ok: true })
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return error(res, 404, 'Not found', 'not_found_error')
      if (req.headers.authorization !== `Bearer ${KEY}`) return error(res, 401, 'Incorrect API key provided.', 'invalid_api_key')
      let body
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        return error(res, 400, 'We could not parse the JSON body of your request.')
      }
      if (isAssistantRequest(body)) {
        if (!body.model) return error(res, 400, 'you must provide a model parameter')
        const problem = toolProblems(body)
        if (problem) return error(res, 400, problem)
        return assistant(res, body)
      }
      const user = (body.messages ?? []).find((m) => m.role === 'user')
      if (typeof user?.content === 'string') {
        if (!body.model) return error(res, 400, 'you must provide a model parameter')
        return chat(res, body)
      }
      const parts = Array.isArray(user?.content) ? user.content : []
      const text = parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n')
      const images = parts.filter((p) => p.type === 'image_url')
      for (const image of images) {
        const url = typeof image.image_url === 'string' ? image.image_url : image.image_url?.url
        if (!/^data:image\/(jpeg|png|webp);base64,[A-Za-z0-9+/=]+$/.test(url ?? '')) {
          return error(res, 400, 'Invalid image URL: expected a base64 data URL.')
        }
      }
      if (!body.model) return error(res, 400, 'you must provide a model parameter')
      if (images.length === 0) return error(res, 400, 'The request has no image.')
      // The notes mode ("convert the images to notes") has its own system prompt.
      const system = (body.messages ?? []).find((m) => m.role === 'system')?.content ?? ''
      const notesMode = typeof system === 'string' && system.startsWith('You turn photos into notes')
      requests.push({
        model: body.model,
        prompt: text,
        imageCount: images.length,
        imageBytes: images.map((i) => Math.floor(((i.image_url.url ?? i.image_url).split(',')[1].length * 3) / 4)),
        // The images themselves (base64, without the data: prefix), so a test can check their
        // size and that no metadata (EXIF, GPS) left the browser.
        images: images.map((i) => (i.image_url.url ?? i.image_url).split(',')[1]),
        maxTokens: body.max_tokens ?? null,
        mode: notesMode ? 'notes' : 'feedback',
      })
      if (requests.length > 50) requests.shift()
      if (text.includes('FAIL')) return error(res, 500, 'The model crashed while reading the images.', 'api_error')
      const content = notesMode
        ? `Notes from ${images.length} photo${images.length === 1 ? '' : 's'}:\n` +
          '- Question 3 works in metres and seconds.\n- The graph has labelled axes.'
        : `Feedback on ${images.length} photo${images.length === 1 ? '' : 's'}: ` +
          'Clear working shown throughout. Next step: check the units in question 3.'
      send(res, 200, {
        id: `chatcmpl-stub${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        system_fingerprint: 'fp_stub',
        choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100 * images.length, completion_tokens: 20, total_tokens: 100 * images.length + 20 },
      })
    })
  })
  .listen(port, '127.0.0.1')
