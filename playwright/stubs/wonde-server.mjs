// A stub Wonde (API v1.0, reference/wonde-xporter.md) for the end-to-end tests. It speaks
// Wonde's shapes: `Authorization: Bearer <token>`; `GET /v1.0/schools/:id` (with
// `region.domain`); lists `GET /v1.0/schools/:id/{students,classes,groups,employees,deletions}`
// as `{"data":[..],"meta":{"pagination":{"next","previous","more","per_page","current_page"}}}`
// with `next` carrying the query; includes wrapped in `{"data":..}` and left out unless asked
// for; PHP DateTime objects; `null` for unapproved scopes (the pupils' own contact details);
// `updated_after` filtering. Each list page waits `pageDelayMs` so a sync's progress can be
// watched.
//
//   const stub = await startWondeStub({ port: 3112, token, schoolId, pupils: 120 })
//   node stubs/wonde-server.mjs --port 3112
import http from 'node:http'

const php = (date) => ({
  date: date.toISOString().replace('T', ' ').replace('Z', '000').slice(0, 26),
  timezone_type: 3,
  timezone: 'UTC',
})

const INCLUDES = {
  students: ['year', 'registration', 'classes', 'education_details', 'contact_details', 'contacts', 'contacts.contact_details'],
  classes: ['employees', 'students', 'subject'],
  employees: ['employment_details', 'contact_details', 'classes'],
  groups: ['students', 'employees'],
  deletions: [],
}

/** A school of `pupils` pupils in 4 forms and 2 years, 6 classes and 3 staff. Every 10th pupil
 * has no parent e-mail; pupil 5 has no form group; pupils 7 and 8 share an e-mail address. */
export function generateSchool(pupils = 120) {
  const old = php(new Date(Date.now() - 30 * 86400_000))
  const years = [7, 8].map((y) => ({ id: `Y${y}`, mis_id: `${y}`, code: `${y}`, name: `Year ${y}`, type: 'YEAR', updated_at: old }))
  const forms = ['7A', '7B', '8A', '8B'].map((f, i) => ({ id: `F${i}`, mis_id: `${300 + i}`, code: f, name: f, type: 'REGISTRATION', updated_at: old }))
  const employees = [0, 1, 2].map((s) => ({
    id: `E${s}`, title: 'Ms', forename: `Wendy${s}`, surname: 'Teacher', legal_forename: null, legal_surname: null,
    created_at: old, updated_at: old,
    employment_details: { data: { teaching_staff: true, current: true, staff_code: `WT${s}` } },
    contact_details: { data: { emails: { email: null, work: `wendy${s}.teacher@wonde-e2e.test`, primary: null, home: null } } },
  }))
  const classes = [0, 1, 2, 3, 4, 5].map((c) => ({
    id: `C${c}`, mis_id: `${c}`, name: `Maths set ${c + 1}`, code: `Ma${c + 1}`, subject: 'S1', created_at: old, updated_at: old,
    employees: { data: [{ id: `E${c % 3}` }] },
  }))
  const students = Array.from({ length: pupils }, (_, n) => {
    const year = years[n % 2]
    const form = n === 5 ? null : forms[(n % 2) * 2 + (n % 4 < 2 ? 0 : 1)]
    const email = n === 7 || n === 8 ? 'shared.pupil@wonde-e2e.test' : `pupil${n}@wonde-e2e.test`
    return {
      id: `P${String(n).padStart(5, '0')}`, upi: `upi${n}`, mis_id: `${n}`, forename: `Wonde${n}`, surname: `Pupil${String(n).padStart(3, '0')}`,
      legal_forename: null, legal_surname: null, gender: 'Female',
      date_of_birth: { date: '2013-04-02 00:00:00.000000', timezone_type: 3, timezone: 'Europe/London' },
      created_at: old, updated_at: old,
      year: { data: year },
      registration: { data: form },
      classes: { data: [{ id: `C${n % 6}` }] },
      contact_details: { data: { emails: { email, primary: null, home: null, work: null } } },
      education_details: { data: { upn: `E2E${String(n).padStart(10, '0')}` } },
      contacts: {
        data: [
          {
            id: `K${n}`, forename: 'Parent', surname: `Of${n}`,
            relationship: { relationship: 'Mother', parental_responsibility: true, priority: 1 },
            contact_details: { data: { emails: { email: n % 10 === 9 ? null : `parent${n}@home-e2e.test` } } },
          },
        ],
      },
    }
  })
  return { students, classes, groups: [...years, ...forms], employees, deletions: [] }
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

export async function startWondeStub({ port = 0, token = 'wonde-e2e-token', schoolId = 'A1930499544', pupils = 120, pageDelayMs = 400 } = {}) {
  const school = generateSchool(pupils)
  const requests = []
  let origin = ''
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, origin)
    requests.push(`${req.method} ${url.pathname}${url.search}`)
    if (req.headers.authorization !== `Bearer ${token}`) {
      return send(res, 401, { error: 'invalid_token', error_description: 'The access token provided is invalid.' })
    }
    const parts = url.pathname.split('/').filter(Boolean) // v1.0 schools :id [:endpoint]
    if (parts[0] !== 'v1.0' || parts[1] !== 'schools') return send(res, 404, { error: 'Not found' })
    if (parts[2] !== schoolId) return send(res, 404, { error: 'Not found', error_description: 'School not found' })
    if (parts.length === 3) {
      return send(res, 200, {
        data: { id: schoolId, name: 'Wonde Testing School', mis: 'SIMS', timezone: 'Europe/London',
          region: { code: 'GBR', domain: 'api.wonde.com', school_url: `https://api.wonde.com/v1.0/schools/${schoolId}` } },
      })
    }
    const endpoint = parts[3]
    const records = school[endpoint]
    if (!records) return send(res, 404, { error: 'Not found' })
    const includes = (url.searchParams.get('include') ?? '').split(',').filter(Boolean)
    const bad = includes.find((i) => !INCLUDES[endpoint].includes(i))
    if (bad) return send(res, 422, { error: `Invalid include: ${bad}` })
    await new Promise((r) => setTimeout(r, pageDelayMs))
    const page = Number(url.searchParams.get('page') ?? '1')
    const perPage = Number(url.searchParams.get('per_page') ?? '50')
    const after = url.searchParams.get('updated_after')
    const matching = records.filter((r) => !after || r.updated_at.date.slice(0, 19) > after)
    const data = matching.slice((page - 1) * perPage, page * perPage).map((record) => {
      const shaped = { ...record }
      for (const name of INCLUDES[endpoint].filter((n) => !n.includes('.'))) {
        if (!includes.some((i) => i === name || i.startsWith(`${name}.`))) delete shaped[name]
      }
      return shaped
    })
    const more = page * perPage < matching.length
    let next = null
    if (more) {
      const nextUrl = new URL(url.pathname, origin)
      for (const [k, v] of url.searchParams) if (k !== 'page') nextUrl.searchParams.append(k, v)
      nextUrl.searchParams.set('page', String(page + 1))
      next = nextUrl.toString()
    }
    send(res, 200, {
      data,
      meta: { pagination: { next, previous: null, more, per_page: String(perPage), current_page: page }, includes },
    })
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
  const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 3112)
  const stub = await startWondeStub({ port, token: process.env.STUB_WONDE_TOKEN ?? 'wonde-e2e-token' })
  console.log(`stub Wonde on ${stub.origin}`)
}
