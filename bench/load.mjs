// A small HTTP load program: `node bench/load.mjs URL COOKIE CONNECTIONS SECONDS` keeps
// CONNECTIONS requests in flight (keep-alive) for SECONDS and prints requests per second
// and the latency percentiles p50, p90, p99 (ms). Every answer must be 200.
import http from 'node:http'

const [url, cookie, connections = '50', seconds = '15'] = process.argv.slice(2)
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) })
const target = new URL(url)

function once() {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const request = http.get(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, agent, headers: { cookie } },
      (response) => {
        response.resume()
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`))
          else resolve(Number(process.hrtime.bigint() - started) / 1e6)
        })
      },
    )
    request.on('error', reject)
  })
}

const latencies = []
const end = Date.now() + Number(seconds) * 1000
const began = Date.now()
await Promise.all(
  Array.from({ length: Number(connections) }, async () => {
    while (Date.now() < end) latencies.push(await once())
  }),
)
const elapsed = (Date.now() - began) / 1000
latencies.sort((a, b) => a - b)
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(1)
console.log(
  `${latencies.length} requests, ${(latencies.length / elapsed).toFixed(0)} req/s   p50 ${pct(50)} ms   p90 ${pct(90)} ms   p99 ${pct(99)} ms`,
)
agent.destroy()
