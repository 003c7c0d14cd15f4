// A stub Deepgram-compatible speech server for the end-to-end tests (port 3109), speaking
// the real wire protocol of /work/shared/reference/deepgram.md:
//   GET  /health           {"ok":true}
//   POST /v1/auth/grant    `Authorization: Token stub-deepgram-key`, JSON body {ttl_seconds?}
//                          -> {access_token, expires_in} (a short-lived token for the browser)
//   WS   /v1/listen?...    subprotocol ["bearer", <granted token>] (or ["token", <key>], or an
//                          Authorization header); the 101 echoes the scheme. Binary frames are
//                          linear16 audio; every 32000 bytes (1 s at 16 kHz) it answers a
//                          Results message, interim first, then final. KeepAlive / Finalize /
//                          CloseStream as the real service; 10 s without any message -> 1011
//                          NET-0001.
//   POST /v1/listen?model=nova-2&smart_format=true
//                          pre-recorded (deepgram.md §3): `Authorization: Token stub-deepgram-key`,
//                          body = the file's bytes with its audio/* or video/* Content-Type ->
//                          Deepgram's ListenV1Response; the transcript says how many bytes of
//                          which type arrived. A body starting with "FAIL" gets a 400 in the
//                          modern error shape (for the Failed + Retry path).
//   GET  /sessions         what each WebSocket session received, for test assertions.
//   GET  /prerecorded      what each pre-recorded call received (type, bytes, sha256).
//   PUT  /scripts/<name>   {phrases: [...]}: what a scripted speaker says. The same API under
//                          the base URL http://127.0.0.1:3109/scripts/<name> (as behind a
//                          proxy: VOICEMARK_DEEPGRAM_URL may carry a path) speaks those phrases
//                          once each, in order, and then only silence (final Results with an
//                          empty transcript, as the real service sends for silence). A test
//                          file that runs its own server points it there to control exactly
//                          what is "said"; the default phrases below repeat for everyone else.
import crypto from 'node:crypto'
import http from 'node:http'

import { WebSocketServer } from 'ws'

const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 3109)
const API_KEY = 'stub-deepgram-key'
/** The real service closes after "about 10 s" without audio or text; allow timer jitter. */
const IDLE_MS = 10_000 + 1_000
/** One second of 16 kHz, 16-bit mono PCM. */
const BYTES_PER_RESULT = 32_000
const REQUIRED_PARAMS = {
  model: 'nova-2',
  smart_format: 'true',
  profanity_filter: 'true',
  encoding: 'linear16',
  sample_rate: '16000',
}
const PHRASES = [
  'Good use of evidence in paragraph two.',
  'Check the spelling of necessary.',
  'A strong conclusion that answers the question.',
]

/** Scripted speakers: name -> the phrases said under /scripts/<name> (PUT /scripts/<name>). */
const scripts = new Map()
const SCRIPT_NAME = /^[\w.-]{1,100}$/

/**
 * The script a path is under and the API path within it: `/scripts/<name>/v1/listen` ->
 * {script: name, path: '/v1/listen'}; any other path has no script.
 */
function scriptOf(pathname) {
  const match = /^\/scripts\/([^/]+)(\/v1\/.*)$/.exec(pathname)
  return match ? { script: decodeURIComponent(match[1]), path: match[2] } : { script: null, path: pathname }
}

/** `PUT /scripts/<name>` {phrases}: sets what that scripted speaker says. */
async function putScript(req, res, name) {
  if (!SCRIPT_NAME.test(name)) return json(res, 400, { err_code: 'Bad Request', err_msg: 'A script name is letters, digits, ".", "_" or "-".' })
  let body
  try {
    body = JSON.parse((await readBody(req)) || '{}')
  } catch {
    return json(res, 400, { err_code: 'Bad Request', err_msg: 'The body is not valid JSON.' })
  }
  const phrases = body.phrases
  if (!Array.isArray(phrases) || !phrases.every((p) => typeof p === 'string' && p.trim()))
    return json(res, 400, { err_code: 'Bad Request', err_msg: 'phrases must be a list of non-empty strings.' })
  scripts.set(name, phrases)
  return json(res, 200, { ok: true, name, phrases })
}

/** access_token -> expiry (ms since the epoch). */
const grants = new Map()
/** Every WebSocket session, oldest first (served by GET /sessions). */
const sessions = []

function json(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'dg-request-id': crypto.randomUUID(), ...headers })
  res.end(JSON.stringify(body))
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    req.on('data', (chunk) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

async function grant(req, res) {
  if (req.headers.authorization !== `Token ${API_KEY}`)
    return json(res, 401, { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.', request_id: crypto.randomUUID() })
  if (!String(req.headers['content-type'] ?? '').startsWith('application/json'))
    return json(res, 415, { err_code: 'UNSUPPORTED_MEDIA_TYPE', err_msg: 'Content-Type must be application/json.' })
  let body
  try {
    body = JSON.parse((await readBody(req)) || '{}')
  } catch {
    return json(res, 400, { err_code: 'Bad Request', err_msg: 'The body is not valid JSON.' })
  }
  const ttl = body.ttl_seconds ?? 30
  if (typeof ttl !== 'number' || ttl < 1 || ttl > 3600)
    return json(res, 400, { err_code: 'Bad Request', err_msg: 'ttl_seconds must be between 1 and 3600.' })
  const token = `stub.${crypto.randomBytes(24).toString('base64url')}`
  grants.set(token, Date.now() + ttl * 1000)
  return json(res, 200, { access_token: token, expires_in: ttl })
}

/** Every pre-recorded call: {contentType, bytes, sha256, query}. */
const prerecorded = []

/** `POST /v1/listen`: Deepgram's pre-recorded API, answering its real response shape. */
async function listen(req, res, url) {
  if (req.headers.authorization !== `Token ${API_KEY}`)
    return json(res, 401, { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.', request_id: crypto.randomUUID() })
  for (const [name, expected] of Object.entries({ model: 'nova-2', smart_format: 'true' })) {
    if (url.searchParams.get(name) !== expected)
      return json(res, 400, { err_code: 'Bad Request', err_msg: `Query parameter ${name} must be ${expected}.` })
  }
  const contentType = String(req.headers['content-type'] ?? '')
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  const body = Buffer.concat(chunks)
  if (!/^(audio|video)\//.test(contentType) || body.length === 0)
    return json(res, 400, {
      category: 'INVALID_BODY',
      message: 'Bad Request: failed to process audio: corrupt or unsupported data',
      details: `Content-Type ${contentType || '(none)'}, ${body.length} bytes.`,
      request_id: crypto.randomUUID(),
    })
  const sha256 = crypto.createHash('sha256').update(body).digest('hex')
  prerecorded.push({ contentType, bytes: body.length, sha256, query: url.search })
  if (body.subarray(0, 4).toString('latin1') === 'FAIL')
    return json(res, 400, {
      category: 'INVALID_BODY',
      message: 'Bad Request: failed to process audio: corrupt or unsupported data',
      details: 'The stub was asked to fail.',
      request_id: crypto.randomUUID(),
    })
  const transcript = `Stub transcript of ${body.length} bytes of ${contentType.split(';')[0]}.`
  const modelId = '30089e05-99d1-4376-b32e-c263170674af'
  return json(res, 200, {
    metadata: {
      transaction_key: 'deprecated',
      request_id: crypto.randomUUID(),
      sha256,
      created: new Date().toISOString(),
      duration: body.length / 32_000,
      channels: 1,
      models: [modelId],
      model_info: { [modelId]: { name: '2-general-nova', version: '2024-01-09.29447', arch: 'nova-2' } },
    },
    results: {
      channels: [
        {
          alternatives: [
            {
              transcript,
              confidence: 0.99,
              words: transcript.split(' ').map((word, i) => ({
                word: word.toLowerCase().replace(/[.]/g, ''),
                start: i * 0.3,
                end: i * 0.3 + 0.25,
                confidence: 0.99,
                punctuated_word: word,
              })),
            },
          ],
        },
      ],
    },
  })
}

/** The credential of an upgrade request, or why it is refused. */
function authenticate(req) {
  const offered = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
  let scheme
  let credential
  if (offered.length === 2 && (offered[0] === 'bearer' || offered[0] === 'token')) {
    ;[scheme, credential] = offered
  } else if (req.headers.authorization) {
    const [kind, value] = String(req.headers.authorization).split(' ')
    scheme = kind.toLowerCase()
    credential = value
  } else {
    return { error: 'Missing credentials: offer the subprotocols ["bearer", token] or ["token", key].' }
  }
  if (scheme === 'token' && credential === API_KEY) return { scheme, viaSubprotocol: offered.length === 2 }
  if (scheme === 'bearer') {
    const expiry = grants.get(credential)
    if (expiry === undefined) return { error: 'Invalid credentials.' }
    if (expiry < Date.now()) return { error: 'The token has expired.' }
    return { scheme, viaSubprotocol: offered.length === 2 }
  }
  return { error: 'Invalid credentials.' }
}

function refuseUpgrade(socket, status, reason, message) {
  const body = JSON.stringify({ err_code: reason, err_msg: message, request_id: crypto.randomUUID() })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ndg-error: ${message}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  )
}

/** What the speaker says next: the default phrases in turn, or a script's once and then silence. */
function nextPhrase(session) {
  if (session.phrases) return session.phrases[session.finals] ?? ''
  return PHRASES[session.finals % PHRASES.length]
}

function results(session, { isFinal, fromFinalize = false }) {
  const phrase = nextPhrase(session)
  const words = phrase ? phrase.split(' ') : []
  // An interim guess carries the first half of the phrase, lower case, unpunctuated.
  const shown = isFinal ? words : words.slice(0, Math.ceil(words.length / 2))
  const transcript = isFinal ? phrase : shown.join(' ').toLowerCase().replace(/[.,]/g, '')
  const seconds = session.bytes / BYTES_PER_RESULT
  const start = session.finalSeconds
  const duration = Math.max(0.01, seconds - start)
  const step = duration / Math.max(1, shown.length)
  if (isFinal) {
    session.finals += 1
    session.finalSeconds = seconds
  }
  return {
    type: 'Results',
    channel_index: [0, 1],
    duration: Number(duration.toFixed(3)),
    start: Number(start.toFixed(3)),
    is_final: isFinal,
    speech_final: isFinal,
    from_finalize: fromFinalize,
    channel: {
      alternatives: [
        {
          transcript,
          confidence: isFinal ? 0.97 : 0.82,
          languages: [],
          words: shown.map((word, i) => ({
            word: word.toLowerCase().replace(/[.,]/g, ''),
            start: Number((start + i * step).toFixed(3)),
            end: Number((start + (i + 1) * step).toFixed(3)),
            confidence: 0.95,
            punctuated_word: isFinal ? word : word.toLowerCase().replace(/[.,]/g, ''),
          })),
        },
      ],
    },
    metadata: {
      request_id: session.requestId,
      model_info: { name: '2-general-nova', version: '2024-01-18.26916', arch: 'nova-2' },
      model_uuid: 'c0d1a568-0000-4000-8000-000000000000',
    },
  }
}

function metadata(session) {
  return {
    type: 'Metadata',
    transaction_key: 'deprecated',
    request_id: session.requestId,
    sha256: session.hash.copy().digest('hex'),
    created: session.startedAt,
    duration: Number((session.bytes / BYTES_PER_RESULT).toFixed(3)),
    channels: 1,
  }
}

const wss = new WebSocketServer({
  noServer: true,
  // Echo the scheme the browser offered; it fails the handshake without a selection.
  handleProtocols: (protocols) => {
    const [first] = protocols
    return first === 'bearer' || first === 'token' ? first : false
  },
})

wss.on('connection', (ws, req, { params, auth, script }) => {
  const session = {
    id: sessions.length + 1,
    requestId: crypto.randomUUID(),
    startedAt: new Date().toISOString(),
    script,
    phrases: script ? scripts.get(script) : null,
    params,
    auth: auth.scheme,
    protocol: ws.protocol,
    bytes: 0,
    binaryFrames: 0,
    emptyFrames: 0,
    keepAlives: 0,
    finalizes: 0,
    closeStreams: 0,
    unknownMessages: 0,
    resultsSent: 0,
    closeCode: null,
    closeReason: null,
    closedBy: null,
    finals: 0,
    finalSeconds: 0,
    pendingBytes: 0,
    hash: crypto.createHash('sha256'),
  }
  sessions.push(session)

  const send = (message) => {
    if (ws.readyState !== ws.OPEN) return
    if (message.type === 'Results') session.resultsSent += 1
    ws.send(JSON.stringify(message))
  }
  const close = (code, reason) => {
    if (ws.readyState !== ws.OPEN) return
    session.closedBy = 'server'
    ws.close(code, reason)
  }
  let idle
  const touch = () => {
    clearTimeout(idle)
    idle = setTimeout(() => close(1011, 'NET-0001'), IDLE_MS)
  }
  touch()

  /** Flushes audio not yet answered with a final result (Finalize / CloseStream). */
  const flush = () => {
    if (session.pendingBytes > 0) {
      session.pendingBytes = 0
      send(results(session, { isFinal: true, fromFinalize: true }))
    }
  }

  ws.on('message', (data, isBinary) => {
    touch()
    if (isBinary) {
      const bytes = data.length
      if (bytes === 0) {
        // Older clients closed the stream with an empty frame; the real service treats it
        // as a close. Counted so tests can assert the client never sends one.
        session.emptyFrames += 1
        flush()
        send(metadata(session))
        close(1000, '')
        return
      }
      session.binaryFrames += 1
      session.hash.update(data)
      const before = Math.floor(session.bytes / BYTES_PER_RESULT)
      session.bytes += bytes
      session.pendingBytes += bytes
      const after = Math.floor(session.bytes / BYTES_PER_RESULT)
      for (let second = before + 1; second <= after; second++) {
        // Odd seconds: an interim guess; even seconds: the phrase becomes final.
        if (second % 2 === 1) send(results(session, { isFinal: false }))
        else {
          session.pendingBytes = 0
          send(results(session, { isFinal: true }))
        }
      }
      return
    }
    let message
    try {
      message = JSON.parse(data.toString('utf8'))
    } catch {
      close(1008, 'DATA-0000')
      return
    }
    switch (message?.type) {
      case 'KeepAlive':
        session.keepAlives += 1
        break
      case 'Finalize':
        session.finalizes += 1
        flush()
        break
      case 'CloseStream':
        session.closeStreams += 1
        flush()
        send(metadata(session))
        close(1000, '')
        break
      default:
        session.unknownMessages += 1
    }
  })
  ws.on('close', (code, reason) => {
    clearTimeout(idle)
    session.closeCode = code
    session.closeReason = reason.toString('utf8')
    session.closedBy ??= 'client'
  })
})

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost')
  if (req.method === 'GET' && url.pathname === '/health') return json(res, 200, { ok: true })
  const scriptPut = /^\/scripts\/([^/]+)$/.exec(url.pathname)
  if (req.method === 'PUT' && scriptPut) {
    putScript(req, res, decodeURIComponent(scriptPut[1])).catch(() => json(res, 500, { err_code: 'INTERNAL', err_msg: 'Stub failure.' }))
    return
  }
  const { script, path } = scriptOf(url.pathname)
  if (script !== null && !scripts.has(script))
    return json(res, 404, { err_code: 'NOT_FOUND', err_msg: `No script named ${script}: PUT /scripts/${script} first.` })
  if (req.method === 'POST' && path === '/v1/auth/grant') {
    grant(req, res).catch(() => json(res, 500, { err_code: 'INTERNAL', err_msg: 'Stub failure.' }))
    return
  }
  if (req.method === 'POST' && path === '/v1/listen') {
    listen(req, res, url).catch(() => json(res, 500, { err_code: 'INTERNAL', err_msg: 'Stub failure.' }))
    return
  }
  if (req.method === 'GET' && url.pathname === '/prerecorded') return json(res, 200, prerecorded)
  if (req.method === 'GET' && url.pathname === '/sessions') {
    return json(
      res,
      200,
      sessions.map(({ hash, finals, finalSeconds, pendingBytes, phrases, ...visible }) => visible),
    )
  }
  json(res, 404, { err_code: 'NOT_FOUND', err_msg: 'Not found' })
})

server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url ?? '/', 'http://localhost')
  const { script, path } = scriptOf(url.pathname)
  if (path !== '/v1/listen') return refuseUpgrade(socket, 404, 'Not Found', 'Unknown path.')
  if (script !== null && !scripts.has(script)) return refuseUpgrade(socket, 404, 'Not Found', `No script named ${script}.`)
  const auth = authenticate(req)
  if (auth.error) return refuseUpgrade(socket, 401, 'Unauthorized', auth.error)
  const params = Object.fromEntries(url.searchParams)
  for (const [name, expected] of Object.entries(REQUIRED_PARAMS)) {
    if (params[name] !== expected)
      return refuseUpgrade(socket, 400, 'Bad Request', `Query parameter ${name} must be ${expected}.`)
  }
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req, { params, auth, script }))
})

server.listen(port, '127.0.0.1')
