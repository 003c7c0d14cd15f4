// A stub Microsoft Graph (v1.0) for the end-to-end tests, speaking Graph's real shapes
// (shared/reference/msgraph-files-teams.md, docs/microsoft-graph.md). Every Graph call must
// carry `Authorization: Bearer <token>` with a token the stub identity platform
// (microsoft-server.mjs) issued; anything else gets Graph's 401 InvalidAuthenticationToken.
//   GET /v1.0/me                                         { id (the account's oid), displayName, mail }
//   GET /v1.0/me/drive/root/children?$top=…              driveItems, two pages joined by
//       @odata.nextLink ($skiptoken); folders carry `folder`, files `file.mimeType`
//   GET /v1.0/me/drive/items/{id}/children               a folder's items (also under
//   GET /v1.0/drives/{drive}/items/{id}/children           /drives/{drive}/…)
//   GET /v1.0/drives/{drive}/items/{id}/content          302 to a pre-authenticated URL on
//   GET /v1.0/me/drive/items/{id}/content                  another host (`localhost` instead of
//   GET /v1.0/me/onlineMeetings/{m}/recordings/{id}/content  127.0.0.1), which must not get the token
//   GET /download.aspx?UniqueId=…&tempauth=…             the bytes (no Authorization expected)
//   GET /v1.0/users/{id}/onlineMeetings/getAllRecordings(meetingOrganizerUserId='{id}',startDateTime=…,endDateTime=…)
//   GET /v1.0/users/{id}/onlineMeetings/getAllTranscripts(…)  callRecording / callTranscript
//       collections of the organiser's meetings in the window, linked by contentCorrelationId
//   GET /v1.0/me/onlineMeetings/{m}/transcripts/{id}/content?$format=text/vtt   WebVTT (also
//       under /users/{id}/…); without $format Graph's "Invalid format" 400
//   GET /v1.0/me/followedSites                           the SharePoint sites the user follows
//   GET /v1.0/sites/{site-id}/drives                     a site's document libraries
//   GET /v1.0/drives/{drive}/root/children               a library's top folder
//   GET /seen                                             what each download request carried
//
//   const graph = await startGraphStub({ identity, port })   // identity: a started microsoft stub
import crypto from 'node:crypto'
import http from 'node:http'

/** The text of the Teams transcript of the first recording, as its WebVTT says it. */
export const TRANSCRIPT_LINES = [
  'Alex Morgan: Good morning, everyone. Today we look at photosynthesis.',
  'Ada Lovelace: Is that the one with chlorophyll?',
]

const VTT = `WEBVTT

00:00:03.520 --> 00:00:05.110
<v Alex Morgan>Good morning, everyone.</v>

00:00:05.200 --> 00:00:07.110
<v Alex Morgan>Today we look at photosynthesis.</v>

00:00:07.900 --> 00:00:09.020
<v Ada Lovelace>Is that the one with chlorophyll?</v>
`

/** The text of the OneDrive file `Photosynthesis notes.txt`. */
export const NOTES_TEXT = 'Chlorophyll absorbs light energy in the leaves.'

const DRIVE = 'b!stubDriveStubDrive0123456789'

/** The followed SharePoint site, its one library and the file in it. */
export const SITE = { id: 'contoso.sharepoint.com,2c712604-1370-44e7-a1f5-426573fda80a,2d2244c3-251a-49ea-93a8-39e1c3a060fe', displayName: 'Science department' }
const SITE_DRIVE = 'b!scienceDocsDrive0123456789'
/** The text of `Scheme of work.txt` in the site's Documents. */
export const SCHEME_TEXT = 'Year 7 science: cells, forces, photosynthesis.'

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json; odata.metadata=minimal; charset=utf-8', ...headers })
  res.end(JSON.stringify(body))
}

function graphError(res, status, code, message, headers = {}) {
  const date = new Date().toISOString().slice(0, 19)
  send(res, status, { error: { code, message, innerError: { date, 'request-id': crypto.randomUUID(), 'client-request-id': crypto.randomUUID() } } }, headers)
}

/** A minimal MP4 (an `ftyp` box and an empty `mdat`) so a recording has real-looking bytes. */
function mp4Bytes() {
  const ftyp = Buffer.alloc(24)
  ftyp.writeUInt32BE(24, 0)
  ftyp.write('ftypisom', 4, 'latin1')
  ftyp.writeUInt32BE(0x200, 12)
  ftyp.write('isomiso2', 16, 'latin1')
  const mdat = Buffer.alloc(8 + 4096, 0)
  mdat.writeUInt32BE(mdat.length, 0)
  mdat.write('mdat', 4, 'latin1')
  return Buffer.concat([ftyp, mdat])
}

const at = (daysAgo, hour, minute) => {
  const d = new Date()
  d.setUTCDate(d.getUTCDate() - daysAgo)
  d.setUTCHours(hour, minute, 5, 0)
  return d
}

export async function startGraphStub({ identity, port = 0 } = {}) {
  if (!identity) throw new Error('startGraphStub needs the identity stub whose tokens it accepts')
  let origin = ''
  /** `{ path, authorization }` of each download request. */
  const seen = []

  const driveItem = (id, name, { folder = false, mimeType, content, parent = '01ROOT', drive = DRIVE } = {}) => ({
    id,
    name,
    size: folder ? 0 : Buffer.byteLength(content ?? ''),
    createdDateTime: '2026-09-01T08:00:00Z',
    lastModifiedDateTime: '2026-11-02T10:02:11Z',
    webUrl: `https://contoso-my.sharepoint.com/personal/stub/Documents/${encodeURIComponent(name)}`,
    parentReference: { driveId: drive, driveType: drive === DRIVE ? 'business' : 'documentLibrary', id: parent },
    ...(folder ? { folder: { childCount: 1 } } : { file: { mimeType, hashes: { quickXorHash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=' } } }),
  })

  const files = new Map([
    ['01NOTES', { item: driveItem('01NOTES', 'Photosynthesis notes.txt', { mimeType: 'text/plain', content: NOTES_TEXT, parent: '01LESSONS' }), bytes: Buffer.from(NOTES_TEXT) }],
    ['01PLAN', { item: driveItem('01PLAN', 'Seating plan.txt', { mimeType: 'text/plain', content: 'Rows A-D' }), bytes: Buffer.from('Rows A-D') }],
    ['02SCHEME', { item: driveItem('02SCHEME', 'Scheme of work.txt', { mimeType: 'text/plain', content: SCHEME_TEXT, parent: '02ROOT', drive: SITE_DRIVE }), bytes: Buffer.from(SCHEME_TEXT) }],
  ])
  /** Each drive's items, for the drive check below. */
  const driveOf = (id) => (id === '02SCHEME' ? SITE_DRIVE : DRIVE)
  const folders = new Map([
    ['01ROOT', [driveItem('01LESSONS', 'Lessons', { folder: true }), driveItem('01RECORDINGS', 'Recordings', { folder: true }), files.get('01PLAN').item]],
    ['01LESSONS', [files.get('01NOTES').item]],
    ['01RECORDINGS', []],
  ])

  /** The meetings' recordings (the first with a Teams transcript), relative to today. */
  const meetings = [
    { meetingId: 'MSo1MeetingOne', recordingId: 'RecOne', transcriptId: 'TrOne', correlation: 'bc842d7a-2f6e-4b18-a1c7-73ef91d5c8e3-0', started: at(2, 9, 0) },
    { meetingId: 'MSo1MeetingTwo', recordingId: 'RecTwo', transcriptId: null, correlation: '5d1a3f0c-8e21-4c55-9b0e-1b4f6f0a2c77-0', started: at(5, 13, 30) },
  ]
  const recordingBytes = mp4Bytes()
  /** tempauth → the bytes it unlocks. */
  const downloads = new Map()

  const bearer = (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
  const account = (req) => identity.accessTokens.get(bearer(req) ?? '')

  const redirectToDownload = (res, id, bytes, contentType) => {
    const tempauth = crypto.randomBytes(24).toString('base64url')
    downloads.set(tempauth, { bytes, contentType })
    const host = origin.replace('127.0.0.1', 'localhost')
    res.writeHead(302, { location: `${host}/download.aspx?UniqueId=${encodeURIComponent(id)}&tempauth=${tempauth}` })
    res.end()
  }

  const page = (res, items, url, pageSize) => {
    const skip = Number(url.searchParams.get('$skiptoken') ?? 0)
    const value = items.slice(skip, skip + pageSize)
    const body = { '@odata.context': `${origin}/v1.0/$metadata#Collection(driveItem)`, value }
    if (skip + pageSize < items.length) {
      const next = new URL(url)
      next.searchParams.set('$skiptoken', String(skip + pageSize))
      body['@odata.nextLink'] = `${origin}${next.pathname}${next.search}`
    }
    send(res, 200, body)
  }

  /** `getAllRecordings(meetingOrganizerUserId='…',startDateTime=…,endDateTime=…)`. */
  const artifacts = (res, user, call, me) => {
    const match = /^(getAllRecordings|getAllTranscripts)\(meetingOrganizerUserId='([^']+)',startDateTime=([^,]+),endDateTime=([^)]+)\)$/.exec(call)
    if (!match) return graphError(res, 400, 'BadRequest', 'Resource not found for the segment.')
    const [, fn, organiser, from, to] = match
    if (organiser !== user || user !== me.oid) return graphError(res, 403, 'Forbidden', 'Access to the meeting artifacts is denied.')
    const [start, end] = [new Date(from), new Date(to)]
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return graphError(res, 400, 'BadRequest', 'Invalid date.')
    const inWindow = meetings.filter((m) => m.started >= start && m.started <= end)
    const base = `${origin}/v1.0/users/${user}/onlineMeetings`
    const common = (m) => ({
      meetingId: m.meetingId,
      callId: crypto.createHash('md5').update(m.meetingId).digest('hex'),
      contentCorrelationId: m.correlation,
      createdDateTime: m.started.toISOString().replace('.000Z', 'Z'),
      endDateTime: new Date(m.started.getTime() + 55 * 60_000).toISOString().replace('.000Z', 'Z'),
      meetingOrganizer: { user: { id: user, tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47' } },
    })
    const value =
      fn === 'getAllRecordings'
        ? inWindow.map((m) => ({ id: m.recordingId, ...common(m), recordingContentUrl: `${base}/${m.meetingId}/recordings/${m.recordingId}/content` }))
        : inWindow
            .filter((m) => m.transcriptId)
            .map((m) => ({ id: m.transcriptId, ...common(m), transcriptContentUrl: `${base}/${m.meetingId}/transcripts/${m.transcriptId}/content` }))
    send(res, 200, { '@odata.context': `${origin}/v1.0/$metadata#Collection(${fn === 'getAllRecordings' ? 'callRecording' : 'callTranscript'})`, value })
  }

  const graph = (req, res, url, me) => {
    const path = url.pathname.slice('/v1.0'.length)
    if (path === '/me') return send(res, 200, { id: me.oid, displayName: 'Alex Morgan', mail: me.email, userPrincipalName: me.email })
    if (path === '/me/drive/root/children') return page(res, folders.get('01ROOT'), url, 2)
    if (path === '/me/followedSites') return send(res, 200, { value: [{ ...SITE, name: 'science', webUrl: 'https://contoso.sharepoint.com/sites/science' }] })
    if (decodeURIComponent(path) === `/sites/${SITE.id}/drives`) {
      return send(res, 200, { value: [{ id: SITE_DRIVE, name: 'Documents', driveType: 'documentLibrary' }] })
    }
    if (path === `/drives/${SITE_DRIVE}/root/children`) return page(res, [files.get('02SCHEME').item], url, 200)
    let m = /^(?:\/me\/drive|\/drives\/([^/]+))\/items\/([^/]+)\/(children|content)$/.exec(path)
    if (m) {
      const [, drive, id, what] = m
      if (drive !== undefined && drive !== DRIVE && drive !== SITE_DRIVE) return graphError(res, 404, 'itemNotFound', 'The resource could not be found.')
      if (what === 'children') {
        const list = folders.get(id)
        return list ? page(res, list, url, 200) : graphError(res, 404, 'itemNotFound', 'The resource could not be found.')
      }
      const file = files.get(id)
      if (!file || (drive !== undefined && driveOf(id) !== drive)) return graphError(res, 404, 'itemNotFound', 'The resource could not be found.')
      return redirectToDownload(res, id, file.bytes, file.item.file.mimeType)
    }
    m = /^\/users\/([^/]+)\/onlineMeetings\/(getAll(?:Recordings|Transcripts)\(.*\))$/.exec(decodeURIComponent(path))
    if (m) return artifacts(res, m[1], m[2], me)
    m = /^(?:\/me|\/users\/[^/]+)\/onlineMeetings\/([^/]+)\/(recordings|transcripts)\/([^/]+)\/content$/.exec(path)
    if (m) {
      const [, meetingId, collection, id] = m
      const meeting = meetings.find((x) => x.meetingId === meetingId && (collection === 'recordings' ? x.recordingId : x.transcriptId) === id)
      if (!meeting) return graphError(res, 404, 'NotFound', 'The meeting artifact could not be found.')
      if (collection === 'recordings') return redirectToDownload(res, id, recordingBytes, 'video/mp4')
      if (url.searchParams.get('$format') !== 'text/vtt') return graphError(res, 400, 'BadRequest', 'Invalid format')
      res.writeHead(200, { 'content-type': 'text/vtt' })
      return res.end(VTT)
    }
    graphError(res, 400, 'BadRequest', `Resource not found for the segment '${path.split('/')[1] ?? ''}'.`)
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://stub')
    if (url.pathname === '/health') return send(res, 200, { ok: true })
    if (url.pathname === '/seen') return send(res, 200, seen)
    if (req.method !== 'GET') return graphError(res, 405, 'BadRequest', 'Method not allowed.')
    if (url.pathname === '/download.aspx') {
      seen.push({ path: url.pathname, uniqueId: url.searchParams.get('UniqueId'), authorization: req.headers.authorization ?? null })
      const download = downloads.get(url.searchParams.get('tempauth') ?? '')
      if (!download) {
        res.writeHead(401, { 'content-type': 'text/plain' })
        return res.end('401 UNAUTHORIZED')
      }
      res.writeHead(200, { 'content-type': download.contentType, 'content-length': download.bytes.length })
      return res.end(download.bytes)
    }
    if (!url.pathname.startsWith('/v1.0/')) return graphError(res, 404, 'NotFound', 'Not found.')
    const me = account(req)
    if (!me) return graphError(res, 401, 'InvalidAuthenticationToken', 'Access token is empty or invalid.')
    try {
      graph(req, res, url, me)
    } catch (error) {
      graphError(res, 500, 'generalException', String(error))
    }
  })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${server.address().port}`
  return {
    origin,
    /** The `VOICEMARK_GRAPH_URL` to give the server. */
    url: `${origin}/v1.0`,
    seen,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.error('graph-server.mjs runs beside the identity stub: import startGraphStub from a spec.')
  process.exit(1)
}
