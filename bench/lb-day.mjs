// bench/lb.sh's driver (Node 20, no packages): a school day at the rate of SCHOOLS schools
// (default 200), sent through the load balancer for DURATION seconds (300), open loop: each
// kind of work arrives at its own rate (a Poisson process, badge polls on a fixed 60 s beat per
// user) whether or not earlier requests have answered, so a slow or missing server shows as
// latency and errors, not as a lower rate. Every request is the app's own: tRPC as
// @trpc/client's httpBatchLink sends it (GET /api/trpc/<procedure>?batch=1&input={"0":{json}}
// for a query, POST with {"0":{json,meta}} and the page's Origin for a mutation; the roster
// through httpLink, unbatched, revalidated with its ETag), Auth.js's routes for sign-in, and
// a PUT of the bytes straight to the presigned S3 URL for an upload.
//
// The rate of one school, in its busiest hour (RATE multiplies every line):
//   - 20 staff with the app open (users 0-19: the admin, 4 leaders, 15 teachers), each
//     polling the badge (user.feedbackHubCount) every 60 s, as the sidebar does;
//   - each of them reads the roster (school.listStudents) every 5 minutes: 240 an hour;
//   - 6 sign-ins an hour by other staff (users 20-99) with a password: GET csrf, POST
//     callback/credentials, GET session, then the badge, and every 60 s after;
//   - 2 assignments an hour sent to a class (notification.create, to pupils and parents);
//   - 60 hand-ins an hour from the pupil's e-mail link (submission.public then
//     submission.submit): a link from an e-mail the SMTP sink received during this run when
//     there is one not yet used, else an earlier assignment's link from the database;
//   - 60 marks an hour (feedback.mark by the assignment's teacher; one in four after opening
//     the Hub on that assignment, feedback.list), of work handed in earlier in this run when
//     there is some, else of work handed in before it;
//   - 3 voice notes an hour (leader.uploadVoiceNote, PUT to the store,
//     leader.transferVoiceNoteToPersonalFolder), 16-64 KB each.
// So 200 schools: 66.7 badge polls, 13.3 roster reads, 0.33 sign-ins, 0.11 sends,
// 3.3 hand-ins, 3.3 marks and 0.17 uploads a second: about 95 requests a second.
//
// Files in <work dir> (written by lb.sh): active.tsv (token, user id, school n, user n),
// signin.tsv (e-mail), open.tsv and marksample.tsv (submission id, token, notification id,
// sender user id), messages.tsv (the sink's record, read as it grows). Written: accepted-*.tsv
// (what the servers accepted, for lb.sh's checks), errors.tsv, timeline.tsv, result.json.
// Usage: node lb-day.mjs <load balancer URL> <work dir>
import http from 'node:http'
import { randomBytes, randomUUID } from 'node:crypto'
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'

const [base, work] = process.argv.slice(2)
const schools = Number(process.env.SCHOOLS ?? 200)
const rate = Number(process.env.RATE ?? 1)
const duration = Number(process.env.DURATION ?? 300) * 1000
const password = process.env.BENCH_PASSWORD ?? 'Lb-bench-password-1'
const maxInFlight = Number(process.env.MAX_IN_FLIGHT ?? 600)
const runId = process.env.RUN_ID ?? randomUUID().slice(0, 8)
const url = new URL(base)
const origin = url.origin
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 })
const storeAgent = new http.Agent({ keepAlive: true, maxSockets: 32 })

const perSchoolHour = { roster: 20 * 12, signin: 6, send: 2, handin: 60, mark: 60, upload: 3 }
const perSecond = Object.fromEntries(Object.entries(perSchoolHour).map(([k, v]) => [k, (v * schools * rate) / 3600]))

const tsv = (name) => (existsSync(`${work}/${name}`) ? readFileSync(`${work}/${name}`, 'utf8').trim().split('\n').filter(Boolean).map((l) => l.split('\t')) : [])
const active = tsv('active.tsv').map(([token, id, school, user]) => ({ token, id, school: Number(school), user: Number(user) }))
const teachers = active.filter((u) => u.user >= 5)
const signins = tsv('signin.tsv').map(([email]) => email)
const open = tsv('open.tsv').map(([id, token, notificationId, sender]) => ({ id, token, notificationId, sender }))
const markSample = tsv('marksample.tsv').map(([id, , notificationId, sender]) => ({ id, notificationId, sender }))
const rand = (n) => Math.floor(Math.random() * n)
const shuffle = (a) => { for (let i = a.length - 1; i > 0; i--) { const j = rand(i + 1); [a[i], a[j]] = [a[j], a[i]] } return a }
shuffle(signins); shuffle(open); shuffle(markSample)
const pad = (n, w) => String(n).padStart(w, '0')

// ---- measuring ----
const stats = new Map() // label -> { times, errors: Map(status -> n), n }
const samples = new Map()
const timeline = new Map() // second since start -> [requests, errors]
const t0 = Date.now()
const record = (label, ms, status, body) => {
  let s = stats.get(label)
  if (!s) stats.set(label, (s = { times: [], errors: new Map(), n: 0 }))
  s.n++
  const ok = typeof status === 'number' && ((status >= 200 && status < 300) || status === 304)
  const sec = Math.floor((Date.now() - t0) / 1000)
  const slot = timeline.get(sec) ?? [0, 0]
  slot[0]++
  if (ok) s.times.push(ms)
  else {
    slot[1]++
    s.errors.set(status, (s.errors.get(status) ?? 0) + 1)
    appendFileSync(`${work}/errors.tsv`, `${Date.now()}\t${label}\t${status}\t${String(body ?? '').slice(0, 160).replace(/\s+/g, ' ')}\n`)
    if (!samples.has(label + status)) samples.set(label + status, `${label} ${status}: ${String(body ?? '').slice(0, 240)}`)
  }
  timeline.set(sec, slot)
  return ok
}

const request = (label, { method = 'GET', path, headers = {}, body, target = url, useAgent = agent }) =>
  new Promise((resolve) => {
    const started = performance.now()
    const req = http.request(
      { hostname: target.hostname, port: target.port, path, method, agent: useAgent, headers: { 'accept-encoding': 'gzip', ...headers } },
      (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => {
          const ms = performance.now() - started
          let raw = Buffer.concat(chunks)
          try { if (res.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw) } catch { /* cut short */ }
          const text = raw.toString()
          const ok = record(label, ms, res.statusCode, text)
          resolve({ ok, status: res.statusCode, headers: res.headers, text })
        })
        res.on('error', (e) => resolve({ ok: record(label, performance.now() - started, `error ${e.code ?? e.message}`, ''), status: 0 }))
      })
    req.on('error', (e) => resolve({ ok: record(label, performance.now() - started, `error ${e.code ?? e.message}`, ''), status: 0 }))
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')))
    req.end(body)
  })

const sessionCookie = (token) => `next-auth.session-token=${token}`
// httpBatchLink's GET: one call, batch of one.
const query = async (label, cookie, proc, input) => {
  const enc = encodeURIComponent(JSON.stringify({ 0: input === undefined ? {} : { json: input } }))
  const r = await request(label, { path: `/api/trpc/${proc}?batch=1&input=${enc}`, headers: { cookie } })
  return { ...r, data: r.ok ? JSON.parse(r.text)[0]?.result?.data?.json : undefined }
}
// httpBatchLink's POST; `dates` names the input's fields that superjson sends as Dates.
const mutation = async (label, cookie, proc, input, dates = []) => {
  const call = { json: input }
  if (dates.length) call.meta = { values: Object.fromEntries(dates.map((d) => [d, ['Date']])) }
  const r = await request(label, {
    method: 'POST', path: `/api/trpc/${proc}?batch=1`, body: JSON.stringify({ 0: call }),
    headers: { cookie: cookie ?? '', 'content-type': 'application/json', origin, 'sec-fetch-site': 'same-origin' },
  })
  return { ...r, data: r.ok ? JSON.parse(r.text)[0]?.result?.data?.json : undefined }
}
const accepted = (file, ...fields) => appendFileSync(`${work}/accepted-${file}.tsv`, `${fields.join('\t')}\n`)

// ---- the work ----
const badgePollers = []
const pollBadge = (cookie) => query('user.feedbackHubCount', cookie, 'user.feedbackHubCount')
const etags = new Map() // user -> the roster's ETag (the browser's HTTP cache)
const readRoster = async () => {
  const u = active[rand(active.length)]
  const headers = { cookie: sessionCookie(u.token) }
  if (etags.has(u.id)) headers['if-none-match'] = etags.get(u.id)
  const r = await request('school.listStudents', { path: '/api/trpc/school.listStudents', headers })
  if (r.ok && r.headers?.etag) etags.set(u.id, r.headers.etag)
}

const signIn = async () => {
  const email = signins.pop()
  if (!email) return
  const csrf = await request('auth: GET csrf', { path: '/api/auth/csrf' })
  if (!csrf.ok) return
  const csrfCookie = (csrf.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).find((c) => c.startsWith('next-auth.csrf-token='))
  const form = new URLSearchParams({ email, password, csrfToken: JSON.parse(csrf.text).csrfToken, callbackUrl: `${origin}/`, json: 'true' })
  const r = await request('auth: POST callback/credentials', {
    method: 'POST', path: '/api/auth/callback/credentials', body: form.toString(),
    headers: { cookie: csrfCookie ?? '', 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1', origin },
  })
  const session = (r.headers?.['set-cookie'] ?? []).map((c) => c.split(';')[0]).find((c) => c.startsWith('next-auth.session-token='))
  if (!r.ok || !session) {
    if (r.ok) record('sign-in refused', 0, `no session: ${r.text.slice(0, 80)}`, r.text)
    return
  }
  accepted('signins', email)
  const s = await request('auth: GET session', { path: '/api/auth/session', headers: { cookie: session } })
  if (s.ok && !JSON.parse(s.text)?.user) record('sign-in refused', 0, 'session empty after sign-in', s.text)
  await pollBadge(session)
  if (Date.now() - t0 < duration) badgePollers.push(setInterval(() => launch('badge', () => pollBadge(session)), 60_000))
}

let sendCount = 0
const senders = new Map() // assignment title -> sender's token (to mark hand-ins of this run's sends)
const send = async () => {
  const u = teachers[rand(teachers.length)]
  const own = [u.user - 5, u.user + 90, u.user + 185].filter((c) => c < 200)
  const classId = `bc-${pad(u.school, 4)}-${pad(own[rand(own.length)], 3)}`
  const title = `LB ${runId} ${++sendCount}: Worksheet`
  senders.set(title, u.id)
  const r = await mutation('notification.create', sessionCookie(u.token), 'notification.create', {
    type: 'ASSIGNMENT', title, customTitle: null, body: '<p>Answer the questions on page 12.</p>',
    sendDate: null, submissionDueDate: new Date(Date.now() + 7 * 86400_000).toISOString(),
    sendToPupil: true, sendToParent: true,
    filters: { classes: [classId], yearGroups: [], formGroups: [], students: [] },
    idempotencyKey: randomUUID(),
  }, ['submissionDueDate'])
  if (r.ok && r.data?.id) accepted('sends', r.data.id, classId)
}

// Links from this run's e-mails, read from the sink's record as it grows.
const links = []
let messagesRead = 0
const usedLinks = new Set()
const readLinks = () => {
  if (!existsSync(`${work}/messages.tsv`)) return
  const lines = readFileSync(`${work}/messages.tsv`, 'utf8').split('\n')
  for (; messagesRead < lines.length - 1; messagesRead++) {
    const [, , , subject, link] = lines[messagesRead].split('\t')
    // Assignment e-mails only: a feedback e-mail links to work already marked.
    if (!link || !subject.startsWith('Assignment:')) continue
    const [id, token] = link.split(' ')
    if (!usedLinks.has(id)) { usedLinks.add(id); links.push({ id, token }) }
  }
}
const toMark = [] // hand-ins of this run, ready to mark: { id, notificationId, sender, at }
let handinCount = 0
const handIn = async () => {
  const fromMail = links.length > 0
  const s = fromMail ? links.shift() : open.pop()
  if (!s) return
  const pub = await query('submission.public', '', 'submission.public', { id: s.id, token: s.token })
  if (!pub.ok) return
  const content = `lb ${runId} hand-in ${++handinCount}`
  const r = await mutation('submission.submit', '', 'submission.submit', { id: s.id, token: s.token, content })
  if (!r.ok) return
  accepted('handins', s.id, content, fromMail ? 'e-mail' : 'database')
  const sender = s.sender ?? senders.get(pub.data?.title)
  if (sender) toMark.push({ id: s.id, notificationId: s.notificationId, sender, at: Date.now() })
}

let markCount = 0
const mark = async () => {
  const s = toMark.length && Date.now() - toMark[0].at > 3000 ? toMark.shift() : markSample.pop()
  if (!s) return
  const cookie = sessionCookie(`bench-${s.sender}`)
  if (s.notificationId && Math.random() < 0.25) await query('feedback.list', cookie, 'feedback.list', { notificationId: s.notificationId, classId: null })
  const feedback = `lb ${runId} mark ${++markCount}: clear and careful work.`
  const r = await mutation('feedback.mark', cookie, 'feedback.mark', {
    submissionId: s.id, feedback, sentiment: ['POSITIVE', 'NEUTRAL', 'NEGATIVE'][rand(3)], idempotencyKey: randomUUID(),
  })
  if (r.ok) accepted('marks', s.id, feedback)
}

let uploadCount = 0
const upload = async () => {
  const u = active[rand(active.length)]
  const cookie = sessionCookie(u.token)
  const size = 16384 + rand(49152)
  const t = await mutation('leader.uploadVoiceNote', cookie, 'leader.uploadVoiceNote', {
    filename: `lb-${runId}-${++uploadCount}.webm`, contentType: 'audio/webm;codecs=opus', size, idempotencyKey: randomUUID(),
  })
  if (!t.ok || !t.data?.url) return
  const target = new URL(t.data.url)
  const put = await request('PUT to the store (S3)', {
    method: 'PUT', target, useAgent: storeAgent, path: target.pathname + target.search,
    headers: { ...t.data.headers, 'content-length': String(size) }, body: randomBytes(size),
  })
  if (!put.ok) return
  const c = await mutation('leader.transferVoiceNoteToPersonalFolder', cookie, 'leader.transferVoiceNoteToPersonalFolder', { key: t.data.key, idempotencyKey: randomUUID() })
  if (c.ok) accepted('uploads', t.data.key, size, c.data?.id ?? '')
}

// ---- the schedule ----
let inFlight = 0
const skipped = new Map()
const pending = new Set()
const launch = (kind, work) => {
  if (Date.now() - t0 > duration) return
  if (inFlight >= maxInFlight) { skipped.set(kind, (skipped.get(kind) ?? 0) + 1); return }
  inFlight++
  const p = work().catch((e) => record(kind, 0, `driver ${e.message}`, e.stack)).finally(() => { inFlight--; pending.delete(p) })
  pending.add(p)
}
const poisson = (kind, perSec, work) => {
  if (perSec <= 0) return
  const next = () => {
    const wait = -Math.log(1 - Math.random()) * 1000 / perSec
    setTimeout(() => { if (Date.now() - t0 <= duration) { launch(kind, work); next() } }, wait)
  }
  next()
}
console.log(`driver: ${schools} schools x ${rate}, ${duration / 1000} s, run ${runId}; per second: ` +
  `${((active.length * Math.min(rate, 1)) / 60).toFixed(1)} badge polls (${active.length} staff, each at most once a minute), ` +
  Object.entries(perSecond).map(([k, v]) => `${v.toFixed(2)} ${k}`).join(', '))
// Each open app polls the badge every 60 s from a random moment of the first minute.
for (const u of active) {
  if (Math.random() >= rate) continue
  const cookie = sessionCookie(u.token)
  setTimeout(() => {
    launch('badge', () => pollBadge(cookie))
    badgePollers.push(setInterval(() => launch('badge', () => pollBadge(cookie)), 60_000))
  }, Math.random() * 60_000)
}
const linkReader = setInterval(readLinks, 1000)
poisson('roster', perSecond.roster, readRoster)
poisson('signin', perSecond.signin, signIn)
poisson('send', perSecond.send, send)
poisson('handin', perSecond.handin, handIn)
poisson('mark', perSecond.mark, mark)
poisson('upload', perSecond.upload, upload)
const progress = setInterval(() => {
  const sec = Math.floor((Date.now() - t0) / 1000)
  let req = 0, err = 0
  for (let s = sec - 10; s < sec; s++) { const slot = timeline.get(s); if (slot) { req += slot[0]; err += slot[1] } }
  console.log(`  ${pad(sec, 3)} s: ${(req / 10).toFixed(0)} req/s, ${err} errors in the last 10 s, ${inFlight} in flight`)
}, 30_000)

await new Promise((r) => setTimeout(r, duration))
for (const t of badgePollers) clearInterval(t)
clearInterval(progress)
await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, 35_000))])
clearInterval(linkReader)
agent.destroy(); storeAgent.destroy()

// ---- the report ----
const pct = (sorted, p) => (sorted.length ? sorted[Math.max(0, Math.ceil((sorted.length * p) / 100) - 1)] : NaN)
const order = ['auth: GET csrf', 'auth: POST callback/credentials', 'auth: GET session', 'user.feedbackHubCount', 'school.listStudents',
  'notification.create', 'submission.public', 'submission.submit', 'feedback.list', 'feedback.mark',
  'leader.uploadVoiceNote', 'PUT to the store (S3)', 'leader.transferVoiceNoteToPersonalFolder']
const rows = [...stats.entries()].map(([label, s]) => {
  const t = s.times.sort((a, b) => a - b)
  return { label, n: s.n, ok: t.length, p50: pct(t, 50), p95: pct(t, 95), p99: pct(t, 99), max: t[t.length - 1] ?? NaN,
    errors: [...s.errors.entries()].map(([k, v]) => `${v}× ${k}`).join(', ') }
}).sort((a, b) => (order.indexOf(a.label) + 1 || 99) - (order.indexOf(b.label) + 1 || 99))
const total = rows.reduce((s, r) => s + r.n, 0)
const failed = rows.reduce((s, r) => s + r.n - r.ok, 0)
const all = rows.flatMap((r) => stats.get(r.label).times).sort((a, b) => a - b)
const f = (x) => (Number.isNaN(x) ? '-' : x.toFixed(1))
console.log(`\n${total} requests in ${duration / 1000} s (${(total / (duration / 1000)).toFixed(1)} a second), ${failed} not answered 2xx/304`)
console.log('| request | requests | errors by status | p50 ms | p95 ms | p99 ms | max ms |')
console.log('|---|---|---|---|---|---|---|')
for (const r of rows) console.log(`| \`${r.label}\` | ${r.n} | ${r.errors || 0} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${f(r.max)} |`)
console.log(`| **all** | ${total} | ${failed} | ${f(pct(all, 50))} | ${f(pct(all, 95))} | ${f(pct(all, 99))} | ${f(all[all.length - 1] ?? NaN)} |`)
const count = (name) => tsv(`accepted-${name}.tsv`).length
const handins = tsv('accepted-handins.tsv')
console.log(`accepted: ${count('signins')} sign-ins, ${count('sends')} sends, ${handins.length} hand-ins ` +
  `(${handins.filter((h) => h[2] === 'e-mail').length} from this run's e-mails), ${count('marks')} marks, ${count('uploads')} uploads`)
if (skipped.size) console.log(`not started (over ${maxInFlight} in flight, the driver or servers behind): ${[...skipped.entries()].map(([k, v]) => `${v} ${k}`).join(', ')}`)
for (const s of samples.values()) console.log('error sample:', s.replace(/\s+/g, ' '))
writeFileSync(`${work}/timeline.tsv`, [...timeline.entries()].sort((a, b) => a[0] - b[0]).map(([s, [n, e]]) => `${t0 + s * 1000}\t${n}\t${e}`).join('\n') + '\n')
writeFileSync(`${work}/result.json`, JSON.stringify({ schools, rate, duration: duration / 1000, total, failed, rows, skipped: Object.fromEntries(skipped) }, null, 1))
process.exit(0) // timers a late answer may have set
