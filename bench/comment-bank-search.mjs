// `node bench/comment-bank-search.mjs BASE COOKIE REQUESTS LABEL`: asks commentBank.search
// REQUESTS times, one at a time (a teacher types in one box), with fragments of 3 to 12
// letters cut from feedback words, and prints the answer-time percentiles p50, p95, p99 (ms)
// and the mean number of matches. Every answer must be 200.
import http from 'node:http'

const [base, cookie, count = '1000', label = 'search'] = process.argv.slice(2)
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const target = new URL(base)
const words = ['great use of evid', 'spel', 'check your', 'para', 'well done on', 'conclu', 'vocab', 'the diag',
  'remember to', 'punct', 'excellent det', 'quot', 'hypoth', 'improve', 'next time', 'units', 'argument', 'handwr',
  'capital', 'final ans', 'sources', 'method', 'presentation', 'introduction', 'timeline']
const fragments = words.flatMap((word) => Array.from({ length: word.length - 2 }, (_, i) => word.slice(0, i + 3)))

function ask(query) {
  const input = encodeURIComponent(JSON.stringify({ json: { query } }))
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const request = http.get(
      { host: target.hostname, port: target.port, path: `/api/trpc/commentBank.search?input=${input}`, agent, headers: { cookie } },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6
          if (response.statusCode !== 200) return reject(new Error(`status ${response.statusCode}: ${Buffer.concat(chunks)}`))
          const matches = JSON.parse(Buffer.concat(chunks).toString()).result.data.json.length
          resolve({ ms, matches })
        })
      },
    )
    request.on('error', reject)
  })
}

for (let i = 0; i < 20; i++) await ask(fragments[i % fragments.length]) // warm up
const times = []
let matches = 0
for (let i = 0; i < Number(count); i++) {
  const answer = await ask(fragments[i % fragments.length])
  times.push(answer.ms)
  matches += answer.matches
}
times.sort((a, b) => a - b)
const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1)
console.log(
  `${label}: ${times.length} searches over 2,000 comments   p50 ${pct(50)} ms   p95 ${pct(95)} ms   p99 ${pct(99)} ms   max ${times.at(-1).toFixed(1)} ms   ${(matches / times.length).toFixed(1)} matches each`,
)
agent.destroy()
