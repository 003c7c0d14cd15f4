// A stub Groupcall Xporter (OneRoster v1.1, reference/wonde-xporter.md §7 B) for the
// end-to-end tests. It speaks Xporter's shapes: `POST /api/ims/oneroster/v1p1/token` with
// HTTP Basic auth (groupcallId:secret) and `grant_type=client_credentials` answering
// `{"access_token","token_type":"Bearer","expires_in"}` (401 otherwise); Bearer calls to
// `GET /api/ims/oneroster/v1p1/{users,classes,enrollments}` with `limit`/`offset`, bodies
// `{"<collection>":[...]}`, `X-Total-Count` and a `Link: <...>; rel="next"` header;
// `filter=dateLastModified>'ISO'`; `GET …/users/:id` as `{"user":{...}}`. Each page waits
// `pageDelayMs` so a sync's progress can be watched.
//
//   const stub = await startXporterStub({ port: 3114, groupcallId, secret, pupils: 40 })
//   node stubs/xporter-server.mjs --port 3114
import http from 'node:http'

const ROOT = '/api/ims/oneroster/v1p1'
const ACCESS_TOKEN = 'xod-e2e-access-token'

const ref = (sourcedId, type) => ({ href: `${ROOT}/${type}s/${sourcedId}`, sourcedId, type })

/** `pupils` pupils in forms 7G and 8G, classes Science 1-3, teachers T0-T1, one parent each
 * (every 10th without an e-mail). */
export function generateSchool(pupils = 40) {
  const old = new Date(Date.now() - 30 * 86400_000).toISOString()
  const org = ref('org-1', 'org')
  const classes = [
    ...['7G', '8G'].map((f) => ({ sourcedId: `hr-${f}`, status: 'active', dateLastModified: old, title: f, classCode: f, classType: 'homeroom', school: org })),
    ...[1, 2, 3].map((c) => ({ sourcedId: `cl-${c}`, status: 'active', dateLastModified: old, title: `Science ${c}`, classCode: `Sc${c}`, classType: 'scheduled', school: org })),
  ]
  const users = [0, 1].map((t) => ({
    sourcedId: `te-${t}`, status: 'active', dateLastModified: old, enabledUser: 'true', orgs: [org], role: 'teacher',
    username: `gteacher${t}`, userIds: [], givenName: `Gill${t}`, familyName: 'Teacher', identifier: '', email: `gill${t}.teacher@groupcall-e2e.test`,
    agents: [], grades: [],
  }))
  const enrollments = [1, 2, 3].map((c) => ({ sourcedId: `en-t${c}`, status: 'active', dateLastModified: old, user: ref(`te-${c % 2}`, 'user'), class: ref(`cl-${c}`, 'class'), school: org, role: 'teacher' }))
  for (let n = 0; n < pupils; n++) {
    const id = `st-${n}`
    users.push({
      sourcedId: id, status: 'active', dateLastModified: old, enabledUser: 'true', orgs: [org], role: 'student', username: `gpupil${n}`,
      userIds: [{ type: 'UPN', identifier: `G${String(n).padStart(12, '0')}` }], givenName: `Groupcall${n}`, familyName: `Pupil${String(n).padStart(3, '0')}`,
      identifier: `${n}`, email: '', agents: [ref(`pa-${n}`, 'user')], grades: [n % 2 === 0 ? '07' : '08'],
    })
    users.push({
      sourcedId: `pa-${n}`, status: 'active', dateLastModified: old, enabledUser: 'true', orgs: [org], role: 'parent', username: '',
      userIds: [], givenName: 'Pat', familyName: `Parent${n}`, identifier: '', email: n % 10 === 9 ? '' : `parent${n}@home-gc-e2e.test`,
      agents: [ref(id, 'user')], grades: [],
    })
    enrollments.push({ sourcedId: `en-f${n}`, status: 'active', dateLastModified: old, user: ref(id, 'user'), class: ref(n % 2 === 0 ? 'hr-7G' : 'hr-8G', 'class'), school: org, role: 'student' })
    enrollments.push({ sourcedId: `en-c${n}`, status: 'active', dateLastModified: old, user: ref(id, 'user'), class: ref(`cl-${(n % 3) + 1}`, 'class'), school: org, role: 'student' })
  }
  return { users, classes, enrollments }
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

export async function startXporterStub({ port = 0, groupcallId = '3281102', secret = 'gc-e2e-secret', pupils = 40, pageDelayMs = 300 } = {}) {
  const school = generateSchool(pupils)
  const requests = []
  let origin = ''
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, origin)
    requests.push(`${req.method} ${url.pathname}${url.search}`)
    if (req.method === 'POST' && url.pathname === `${ROOT}/token`) {
      let body = ''
      for await (const chunk of req) body += chunk
      const basic = `Basic ${Buffer.from(`${groupcallId}:${secret}`).toString('base64')}`
      if (req.headers.authorization !== basic) return send(res, 401, { error: 'invalid_client' })
      if (new URLSearchParams(body).get('grant_type') !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' })
      return send(res, 200, { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 3600 })
    }
    if (req.headers.authorization !== `Bearer ${ACCESS_TOKEN}`) {
      return send(res, 401, { imsx_codeMajor: 'failure', imsx_severity: 'error', imsx_description: 'Unauthorized' })
    }
    const rest = url.pathname.startsWith(`${ROOT}/`) ? url.pathname.slice(ROOT.length + 1).split('/') : []
    if (rest[0] === 'users' && rest.length === 2) {
      const user = school.users.find((u) => u.sourcedId === decodeURIComponent(rest[1]))
      return user ? send(res, 200, { user }) : send(res, 404, { imsx_codeMajor: 'failure', imsx_description: 'Not found' })
    }
    const records = rest.length === 1 ? school[rest[0]] : undefined
    if (!records) return send(res, 404, { imsx_codeMajor: 'failure', imsx_description: 'Not found' })
    await new Promise((r) => setTimeout(r, pageDelayMs))
    const limit = Number(url.searchParams.get('limit') ?? '100')
    const offset = Number(url.searchParams.get('offset') ?? '0')
    const filter = url.searchParams.get('filter')
    const after = filter ? filter.split(">'")[1].replace(/'$/, '').slice(0, 19) : null
    const matching = records.filter((r) => !after || r.dateLastModified.slice(0, 19) > after)
    const headers = { 'x-total-count': String(matching.length) }
    if (offset + limit < matching.length) {
      const next = new URL(url.pathname, origin)
      next.searchParams.set('limit', String(limit))
      next.searchParams.set('offset', String(offset + limit))
      if (filter) next.searchParams.set('filter', filter)
      headers.link = `<${next}>; rel="next"`
    }
    send(res, 200, { [rest[0]]: matching.slice(offset, offset + limit) }, headers)
  })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${server.address().port}`
  return {
    origin,
    requests,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 3114)
  const stub = await startXporterStub({ port })
  console.log(`stub Xporter on ${stub.origin}`)
}
