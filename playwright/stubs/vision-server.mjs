// A stub OpenAI-compatible vision server for the end-to-end tests: POST /v1/chat/completions
// with the real request shape (Bearer key, messages with text and image_url data-URL parts)
// answers a real `chat.completion` object. What it was sent is kept so tests can check it:
// GET /requests returns the last requests (with their images), DELETE /requests clears them.
// A prompt containing "FAIL" gets OpenAI's error envelope with status 500.
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
// GET /chat-requests returns the text requests ({model, kind, stream, responseFormat,
// system, prompt}); DELETE /chat-requests clears them.
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
      requests.push({
        model: body.model,
        prompt: text,
        imageCount: images.length,
        imageBytes: images.map((i) => Math.floor(((i.image_url.url ?? i.image_url).split(',')[1].length * 3) / 4)),
        // The images themselves (base64, without the data: prefix), so a test can check their
        // size and that no metadata (EXIF, GPS) left the browser.
        images: images.map((i) => (i.image_url.url ?? i.image_url).split(',')[1]),
        maxTokens: body.max_tokens ?? null,
      })
      if (requests.length > 50) requests.shift()
      if (text.includes('FAIL')) return error(res, 500, 'The model crashed while reading the images.', 'api_error')
      const content =
        `Feedback on ${images.length} photo${images.length === 1 ? '' : 's'}: ` +
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
