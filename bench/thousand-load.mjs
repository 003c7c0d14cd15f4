// bench/thousand-load.sh's driver (Node, no packages): CONNECTIONS loops (default 100), each
// a user opening pages one after the other for DURATION seconds after WARMUP seconds not
// counted. A loop picks one of the signed-in users (users.tsv: token, role, leader flag,
// school number, user number), then a page that user's role sees, and calls the procedures
// that page calls, one request each (GET /api/trpc/<procedure>?input=…, the way
// httpBatchLink sends a batch of one), as the app does. Prints p50/p95/p99, requests and
// errors per procedure, slowest p95 first, and writes the same as JSON to RESULT (if set).
//
// RATE=<pages a second> drives it open loop instead: page opens arrive at that mean rate (a
// Poisson process) whether or not earlier ones have answered, each by a random user, its
// procedures called one after the other; at most CONNECTIONS requests are in flight and a
// request waiting for a connection counts that wait in its time. Closed loops with no think
// time measure throughput (each answer starts the next request, so latency is connections ÷
// throughput); a rate measures the latency a school day's traffic meets.
// Usage: node thousand-load.mjs <base URL> <users.tsv>
import http from 'node:http'
import { readFileSync, writeFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

const [base, usersFile] = process.argv.slice(2)
const connections = Number(process.env.CONNECTIONS ?? 100)
const duration = Number(process.env.DURATION ?? 60) * 1000
const warmup = Number(process.env.WARMUP ?? 10) * 1000
const rate = process.env.RATE ? Number(process.env.RATE) : null
const cookieName = process.env.COOKIE ?? 'next-auth.session-token'
const agent = new http.Agent({ keepAlive: true, maxSockets: connections })
const url = new URL(base)

const users = readFileSync(usersFile, 'utf8').trim().split('\n').map((line) => {
  const [token, role, leader, school, user] = line.split('\t')
  return { token, role, leader: leader === 't' || leader === '1' || leader === 'true', school: Number(school), user: Number(user) }
})

const pad = (n, w) => String(n).padStart(w, '0')
const rand = (n) => Math.floor(Math.random() * n)
const schoolId = (u) => `bs-${pad(u.school, 4)}`
const pupil = (u) => `bp-${pad(u.school, 4)}-${pad(rand(2000), 4)}`
// Assignment k of a school was set by teacher 5 + k % 95: a teacher's own, or any for others.
const assignment = (u) => {
  let k = rand(200)
  if (u.role === 'TEACHER' && !u.leader && u.user >= 5) {
    const own = [u.user - 5, u.user + 90, u.user + 185].filter((x) => x < 200)
    k = own[rand(own.length)]
  }
  return `bn-${pad(u.school, 4)}-${pad(k, 3)}`
}
const task = (u) => `bw-${pad(u.school, 4)}-${u.leader && u.user <= 4 ? u.user : 1}-${pad(rand(20), 2)}`
const noFilters = { from: null, to: null, schoolId: null, yearGroupId: null, formGroupId: null, classId: null, teacherId: null }

// Pages: what each calls (procedure, input), as the app's pages do on opening.
const pages = {
  dashboard: (u) => [['user.feedbackHubCount'], ['dashboard.summary'], ['system.features']],
  feedback: (u) => [['user.feedbackHubCount'], ['feedback.list', { notificationId: null, classId: null }]],
  feedbackOne: (u) => [['feedback.list', { notificationId: assignment(u), classId: null }]],
  activity: (u) => [['user.feedbackHubCount'], ['notification.list', { search: null, cursor: null, pageSize: null }]],
  activitySearch: (u) => [['notification.list', { search: 'essay', cursor: null, pageSize: null }]],
  notification: (u) => {
    const id = assignment(u)
    return [['notification.get', { id }], ['notification.submissions', { id }], ['notification.recipients', { id }],
      ['notification.reach', { id, days: null, show: null, page: null }]]
  },
  pupil: (u) => {
    const id = pupil(u)
    return [['student.get', { id }], ['student.timeline', { id }], ['student.comments', { id }],
      ['insights.student', { id, from: null, to: null }]]
  },
  palette: (u) => [['school.listStudents']],
  compose: (u) => [['notification.filterOptions']],
  voiceNotes: (u) => [['voiceNote.list']],
  settings: (u) => [['user.settings']],
  commentBank: (u) => [['commentBank.suggestions']],
  users: (u) => [['user.list'], ['leader.getSeatInfo']],
  manage: (u) => [['admin.listPupils', { search: null, cursor: null }], ['admin.listStaff'], ['admin.listClasses'],
    ['admin.listYearGroups'], ['admin.listFormGroups'], ['admin.schoolSettings']],
  insights: (u) => [['insights.filters', { schoolId: null }], ['insights.overview', noFilters], ['insights.pupils', { filters: noFilters, last: 3 }]],
  tasks: (u) => [['task.list', {}], ['task.templateChoices']],
  taskOne: (u) => [['task.get', { id: task(u) }]],
  templates: (u) => [['template.list', {}]],
  reports: (u) => [['report.list'], ['report.sources', null]],
  organisations: (u) => [['organisation.list']],
}
// How often each role opens each page (weights).
const teacherPages = { dashboard: 10, feedback: 10, feedbackOne: 6, activity: 6, activitySearch: 1, notification: 4,
  pupil: 4, palette: 2, compose: 2, voiceNotes: 2, settings: 1, commentBank: 2 }
// Leaders (users 1-4) set no assignments: no assignment pages of their own.
const { feedbackOne: _f, notification: _n, ...leaderBase } = teacherPages
const leaderPages = { ...leaderBase, tasks: 6, taskOne: 4, reports: 3, insights: 2, templates: 1 }
const adminPages = { ...teacherPages, users: 3, manage: 3, insights: 2, templates: 1, tasks: 1 }
const matPages = { dashboard: 4, tasks: 4, insights: 3, organisations: 3, reports: 2, voiceNotes: 1, settings: 1 }
const weightsOf = (u) => (u.role === 'ADMIN' ? adminPages : u.role === 'MAT_USER' ? matPages : u.leader ? leaderPages : teacherPages)
const pick = (weights) => {
  const entries = Object.entries(weights)
  let r = Math.random() * entries.reduce((s, [, w]) => s + w, 0)
  for (const [name, w] of entries) if ((r -= w) < 0) return name
  return entries[0][0]
}

const stats = new Map() // procedure -> { times: [], errors: Map(status -> n), bytes }
const record = (proc, ms, status, bytes) => {
  let s = stats.get(proc)
  if (!s) stats.set(proc, (s = { times: [], errors: new Map(), bytes: 0, n: 0 }))
  s.n++
  if (status === 200) {
    s.times.push(ms)
    s.bytes += bytes
  } else s.errors.set(status, (s.errors.get(status) ?? 0) + 1)
}
const samples = new Map() // procedure+status -> first error body (to say why)

/** `wantBody`: the answer's text comes back too (as `body`). */
const call = (u, proc, input, wantBody = false) =>
  new Promise((resolve) => {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`
    const started = performance.now()
    const req = http.request(
      { hostname: url.hostname, port: url.port, path: `/api/trpc/${proc}${query}`, agent,
        headers: { cookie: `${cookieName}=${u.token}`, 'accept-encoding': 'gzip' } },
      (res) => {
        let bytes = 0
        const chunks = []
        res.on('data', (c) => { bytes += c.length; if (wantBody || (res.statusCode !== 200 && chunks.length < 4)) chunks.push(c) })
        res.on('end', () => {
          const ms = performance.now() - started
          if (res.statusCode !== 200 && !samples.has(proc + res.statusCode)) {
            let body = Buffer.concat(chunks)
            try { if (res.headers['content-encoding'] === 'gzip') body = gunzipSync(body) } catch { /* cut short */ }
            samples.set(proc + res.statusCode, `${proc} ${res.statusCode} (${u.role}${u.leader ? ' leader' : ''}): ${body.toString().slice(0, 200)}`)
          }
          if (!wantBody) return resolve({ ms, status: res.statusCode, bytes })
          let body = Buffer.concat(chunks)
          if (res.headers['content-encoding'] === 'gzip') body = gunzipSync(body)
          resolve({ ms, status: res.statusCode, bytes, body: body.toString() })
        })
      })
    req.on('error', (e) => resolve({ ms: performance.now() - started, status: `error ${e.code ?? e.message}`, bytes: 0 }))
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')))
    req.end()
  })

// A process that has been up a while has worked out its trusts' Insights ahead
// (docs/insights.md); a fresh one works each out on its first view. Before the run, each
// MAT user opens Insights once, four at a time (TRUSTS_FIRST=0 skips it): those first views
// get lines of their own, and the run then meets a process in its steady state.
if (process.env.TRUSTS_FIRST !== '0') {
  const mats = users.filter((u) => u.role === 'MAT_USER')
  const first = async () => {
    for (let u = mats.shift(); u; u = mats.shift()) {
      for (const [proc, input] of pages.insights(u)) {
        const r = await call(u, proc, input)
        record(`${proc} (trust, first view in the process)`, r.ms, r.status, r.bytes)
      }
    }
  }
  await Promise.all([first(), first(), first(), first()])
  // A trust's figures another process kept in the database (or an earlier run's process) are
  // given at once and worked out again in the background (`refreshing`): the run starts once
  // every trust's are fresh, so that it meets the steady state rather than those readings.
  const since = performance.now()
  const mine = users.filter((u) => u.role === 'MAT_USER')
  for (;;) {
    const answers = await Promise.all(mine.map((u) => call(u, 'insights.overview', pages.insights(u)[1][1], true)))
    const waiting = answers.filter((r) => r.status !== 200 || JSON.parse(r.body).result.data.json.refreshing).length
    if (waiting === 0 || performance.now() - since > 300_000) {
      console.log(`trusts' figures fresh ${((performance.now() - since) / 1000).toFixed(1)} s after their first views (${waiting} still not)`)
      break
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

const t0 = performance.now()
let counting = false
setTimeout(() => { counting = true }, warmup)
const end = t0 + warmup + duration
const visit = async (u) => {
  for (const [proc, input] of pages[pick(weightsOf(u))](u)) {
    const r = await call(u, proc, input)
    // A MAT user's Insights are a trust's (worked out ahead, docs/insights.md): their own line.
    const name = u.role === 'MAT_USER' && proc.startsWith('insights.') ? `${proc} (trust)` : proc
    if (counting && performance.now() < end) record(name, r.ms, r.status, r.bytes)
  }
}
const loop = async () => {
  while (performance.now() < end) await visit(users[rand(users.length)])
}
// Open loop: the next page opens after an exponential gap, whatever the server is doing.
const arrivals = async () => {
  const visits = []
  let next = performance.now()
  while (next < end) {
    const wait = next - performance.now()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    visits.push(visit(users[rand(users.length)]))
    next += (-Math.log(1 - Math.random()) / rate) * 1000
  }
  await Promise.all(visits)
}
await (rate ? arrivals() : Promise.all(Array.from({ length: connections }, loop)))
agent.destroy()

const pct = (sorted, p) => (sorted.length ? sorted[Math.max(0, Math.ceil((sorted.length * p) / 100) - 1)] : NaN)
const rows = [...stats.entries()].map(([proc, s]) => {
  const t = s.times.sort((a, b) => a - b)
  return { proc, n: s.n, p50: pct(t, 50), p95: pct(t, 95), p99: pct(t, 99), max: t[t.length - 1] ?? NaN,
    errors: [...s.errors.entries()].map(([k, v]) => `${v}× ${k}`).join(', '), avgBytes: t.length ? Math.round(s.bytes / t.length) : 0 }
}).sort((a, b) => b.p95 - a.p95)
const total = rows.filter((r) => !r.proc.includes('first view')).reduce((s, r) => s + r.n, 0)
const driven = rate ? `open loop at ${rate} pages/s (at most ${connections} connections)` : `${connections} connections`
console.log(`${driven}, ${users.length} users, ${duration / 1000} s counted after ${warmup / 1000} s: ${total} requests, ${(total / (duration / 1000)).toFixed(0)} req/s`)
console.log('| procedure | requests | p50 ms | p95 ms | p99 ms | max ms | errors | bytes (gzip) | target |')
console.log('|---|---|---|---|---|---|---|---|---|')
for (const r of rows) {
  const ok = r.p95 < 50 && r.p99 < 200 && !r.errors
  console.log(`| \`${r.proc}\` | ${r.n} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.max.toFixed(0)} | ${r.errors || 0} | ${r.avgBytes} | ${ok ? 'met' : '**missed**'} |`)
}
for (const s of samples.values()) console.log('error sample:', s)
if (process.env.RESULT) writeFileSync(process.env.RESULT, JSON.stringify({ connections, rate, users: users.length, total, rows }, null, 1))
