// Lighthouse mobile runs (default simulated throttling) of the first screens, a first and a
// repeat visit each, on a running seeded server. Driven by bench/lighthouse.sh; see
// docs/performance.md, "Lighthouse".
//
//   node run.mjs --base http://127.0.0.1:PORT [--email admin@northbridge.test]
//                [--routes /login,/,/feedback,/notifications,/leaders/tasks] [--runs 1]
//                [--out reports] [--chromium /usr/bin/chromium] [--cpu-slowdown 4]
//
// First visit: Lighthouse's own storage reset (12.8: the HTTP cache, service workers, Cache
// Storage, file systems and shader cache; never cookies), so the session cookie set here
// survives it. Repeat visit: the page is loaded once, then Lighthouse runs with
// `disableStorageReset`, so the HTTP cache (and a service worker, once there is one) is warm.
// With --runs N each figure is the run with the median LCP. --cpu-slowdown 1 (a diagnosis,
// not the issue's figure) keeps the simulated network and counts the CPU time as observed:
// it tells the network's share from the CPU's on a busy machine.
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'

import lighthouse from 'lighthouse'
import puppeteer from 'puppeteer-core'

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    email: { type: 'string', default: 'admin@northbridge.test' },
    password: { type: 'string', default: 'Voicemark1' },
    routes: { type: 'string', default: '/login,/,/feedback,/notifications,/leaders/tasks' },
    runs: { type: 'string', default: '1' },
    out: { type: 'string', default: 'reports' },
    chromium: { type: 'string', default: process.env.CHROMIUM ?? '/usr/bin/chromium' },
    'cpu-slowdown': { type: 'string' },
  },
})
if (!args.base) throw new Error('--base http://127.0.0.1:PORT is needed')
const base = args.base.replace(/\/$/, '')
const routes = args.routes.split(',').filter(Boolean)
const runs = Math.max(1, Number(args.runs) || 1)
fs.mkdirSync(args.out, { recursive: true })

/**
 * Signs in through the Auth.js-compatible endpoints and returns the cookies the answer sets,
 * as a browser would keep them: the session cookie (HttpOnly) and the signed-in hint the
 * first frame reads (docs/performance.md, "The first frame").
 */
async function signIn() {
  const csrf = await fetch(`${base}/api/auth/csrf`)
  const csrfCookies = csrf.headers.getSetCookie().map((c) => c.split(';')[0])
  const { csrfToken } = await csrf.json()
  const form = new URLSearchParams({
    email: args.email,
    password: args.password,
    csrfToken,
    callbackUrl: '/',
    json: 'true',
  })
  const answer = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookies.join('; ') },
    body: form,
    redirect: 'manual',
  })
  const cookies = answer.headers.getSetCookie().map((c) => {
    const [pair, ...attributes] = c.split(';')
    const at = pair.indexOf('=')
    return {
      name: pair.slice(0, at).trim(),
      value: pair.slice(at + 1).trim(),
      httpOnly: attributes.some((a) => a.trim().toLowerCase() === 'httponly'),
    }
  })
  if (!cookies.some((c) => c.name === 'next-auth.session-token' && c.value)) {
    throw new Error(`signing in as ${args.email} gave no session cookie (HTTP ${answer.status})`)
  }
  return cookies
}

const flags = { output: 'json', logLevel: 'error', onlyCategories: ['performance'] }
if (args['cpu-slowdown']) {
  // Lighthouse's mobile defaults, one value changed.
  const { throttling } = await import('lighthouse/core/config/constants.js')
  flags.throttling = { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: Number(args['cpu-slowdown']) }
}

function slug(route) {
  return route === '/' ? 'home' : route.replace(/^\//, '').replaceAll('/', '-')
}

function summary(lhr) {
  const audit = (id) => lhr.audits[id]
  const lcpElement = audit('largest-contentful-paint-element')?.details?.items?.[0]?.items?.[0]?.node?.snippet
  return {
    finalUrl: lhr.finalDisplayedUrl,
    lcp: audit('largest-contentful-paint').numericValue,
    fcp: audit('first-contentful-paint').numericValue,
    score: Math.round(lhr.categories.performance.score * 100),
    lcpElement,
    warnings: lhr.runWarnings,
  }
}

async function audit(page, url, name, repeat) {
  const results = []
  for (let i = 0; i < runs; i++) {
    if (repeat) await page.goto(url, { waitUntil: 'networkidle0' })
    const result = await lighthouse(url, { ...flags, disableStorageReset: repeat }, undefined, page)
    const file = path.join(args.out, `${name}-${repeat ? 'repeat' : 'first'}${runs > 1 ? `-${i + 1}` : ''}.json`)
    fs.writeFileSync(file, result.report)
    results.push(summary(result.lhr))
  }
  results.sort((a, b) => a.lcp - b.lcp)
  return results[Math.floor(results.length / 2)]
}

const browser = await puppeteer.launch({
  executablePath: args.chromium,
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
})
const rows = []
try {
  const page = await browser.newPage()
  let signedIn = false
  for (const route of routes) {
    // /login is measured signed out (a signed-in user is sent on); every other page signed in.
    const wantSignedIn = route !== '/login'
    if (wantSignedIn !== signedIn) {
      if (wantSignedIn) {
        const domain = new URL(base).hostname
        await browser.setCookie(...(await signIn()).map((c) => ({ ...c, domain, path: '/' })))
      } else {
        await browser.deleteCookie(...(await browser.cookies()))
      }
      signedIn = wantSignedIn
    }
    const url = `${base}${route}`
    const first = await audit(page, url, slug(route), false)
    const repeat = await audit(page, url, slug(route), true)
    for (const [visit, s] of [['first', first], ['repeat', repeat]]) {
      if (new URL(s.finalUrl).pathname !== new URL(url).pathname) {
        console.error(`warning: ${route} (${visit}) ended on ${s.finalUrl}`)
      }
      for (const w of s.warnings) console.error(`warning: ${route} (${visit}): ${w}`)
      console.error(`${route} ${visit}: LCP element ${s.lcpElement ?? '(none)'}; FCP ${(s.fcp / 1000).toFixed(2)} s`)
    }
    rows.push({ route, first, repeat })
  }
} finally {
  await browser.close()
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`
const table = [
  '| route | first LCP | first score | repeat LCP | repeat score |',
  '|---|---|---|---|---|',
  ...rows.map(
    ({ route, first, repeat }) =>
      `| \`${route}\` | ${seconds(first.lcp)} | ${first.score} | ${seconds(repeat.lcp)} | ${repeat.score} |`,
  ),
]
console.log(table.join('\n'))
