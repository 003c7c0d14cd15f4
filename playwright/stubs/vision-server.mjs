// A stub OpenAI-compatible vision server for the end-to-end tests: POST /v1/chat/completions
// with the real request shape (Bearer key, messages with text and image_url data-URL parts)
// answers a real `chat.completion` object. What it was sent is kept so tests can check it:
// GET /requests returns the last requests (with their images), DELETE /requests clears them.
// A prompt containing "FAIL" gets OpenAI's error envelope with status 500.
//
//   node stubs/vision-server.mjs --port 3108
import http from 'node:http'

const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 3108)
const KEY = process.env.STUB_VISION_KEY ?? 'stub-vision-key'
const requests = []

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
