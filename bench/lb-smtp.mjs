// bench/lb.sh's SMTP sink (Node, no packages): accepts every message on 127.0.0.1:<port> and
// records each one as a line of <record file> (tab-separated), flushed as it arrives:
//   received at (epoch ms), Message-ID (without <>), recipients (comma-joined), subject,
//   the pupil's hand-in link found in the body ("<submission id> <token>", or empty)
// The link is read after undoing the body's transfer encoding (quoted-printable or base64)
// part by part, so lettre's choice of encoding does not matter. Speaks enough of SMTP for
// lettre: EHLO/HELO, MAIL, RCPT, DATA (dot-unstuffed), RSET, NOOP, QUIT.
// Usage: node lb-smtp.mjs <port> <record file>
import net from 'node:net'
import { appendFileSync, writeFileSync } from 'node:fs'

const [port, recordFile] = process.argv.slice(2)
writeFileSync(recordFile, '')
let received = 0

const decodePart = (headers, body) => {
  const encoding = (/^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1] ?? '').toLowerCase()
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (encoding === 'quoted-printable') {
    return Buffer.from(
      body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))),
      'latin1',
    ).toString('utf8')
  }
  return body
}

// Every leaf part's decoded text (a message without parts is one part).
const texts = (raw) => {
  const split = raw.indexOf('\r\n\r\n')
  const headers = split < 0 ? raw : raw.slice(0, split)
  const body = split < 0 ? '' : raw.slice(split + 4)
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(headers)?.[1]
  if (!/^content-type:\s*multipart\//im.test(headers) || !boundary) return [decodePart(headers, body)]
  return body.split(`--${boundary}`).slice(1).filter((p) => !p.startsWith('--')).flatMap((p) => texts(p.replace(/^\r\n/, '')))
}

const header = (headers, name) => {
  const m = new RegExp(`^${name}:[ \\t]*(.*(?:\\r\\n[ \\t].*)*)`, 'im').exec(headers)
  return m ? m[1].replace(/\r\n[ \t]+/g, ' ').trim() : ''
}

const record = (rcpts, raw) => {
  const headers = raw.slice(0, Math.max(0, raw.indexOf('\r\n\r\n')))
  const messageId = header(headers, 'Message-ID').replace(/^<|>$/g, '')
  const subject = header(headers, 'Subject').replace(/\t/g, ' ')
  let link = ''
  for (const text of texts(raw)) {
    const m = /\/submissions\/([A-Za-z0-9_-]+)\/([A-Za-z0-9_-]+)/.exec(text)
    if (m) { link = `${m[1]} ${m[2]}`; break }
  }
  received++
  appendFileSync(recordFile, `${Date.now()}\t${messageId}\t${rcpts.join(',')}\t${subject}\t${link}\n`)
}

const server = net.createServer((socket) => {
  socket.setNoDelay(true)
  let buffer = ''
  let inData = false
  let rcpts = []
  const reply = (line) => socket.write(`${line}\r\n`)
  reply('220 lb-sink ESMTP ready')
  socket.on('data', (chunk) => {
    buffer += chunk.toString('latin1')
    for (;;) {
      if (inData) {
        const end = buffer.indexOf('\r\n.\r\n')
        if (end < 0 && !buffer.startsWith('.\r\n')) return
        const raw = buffer.startsWith('.\r\n') ? '' : buffer.slice(0, end)
        buffer = buffer.startsWith('.\r\n') ? buffer.slice(3) : buffer.slice(end + 5)
        inData = false
        record(rcpts, Buffer.from(raw.replace(/^\.\./gm, '.'), 'latin1').toString('utf8'))
        rcpts = []
        reply('250 2.0.0 queued')
        continue
      }
      const eol = buffer.indexOf('\r\n')
      if (eol < 0) return
      const line = buffer.slice(0, eol)
      buffer = buffer.slice(eol + 2)
      const verb = line.slice(0, 4).toUpperCase()
      if (verb === 'EHLO') socket.write('250-lb-sink\r\n250-8BITMIME\r\n250 SMTPUTF8\r\n')
      else if (verb === 'HELO') reply('250 lb-sink')
      else if (verb === 'MAIL') { rcpts = []; reply('250 2.1.0 ok') }
      else if (verb === 'RCPT') { rcpts.push(/<([^>]*)>/.exec(line)?.[1] ?? line.slice(8)); reply('250 2.1.5 ok') }
      else if (verb === 'DATA') { inData = true; reply('354 end with <CRLF>.<CRLF>') }
      else if (verb === 'RSET') { rcpts = []; reply('250 2.0.0 ok') }
      else if (verb === 'NOOP') reply('250 2.0.0 ok')
      else if (verb === 'QUIT') { reply('221 2.0.0 bye'); socket.end() }
      else reply('502 5.5.2 not implemented')
    }
  })
  socket.on('error', () => {})
})
server.listen(Number(port), '127.0.0.1', () => console.log(`smtp sink on 127.0.0.1:${port}, recording to ${recordFile}`))
process.on('SIGTERM', () => { console.log(`smtp sink: ${received} messages`); process.exit(0) })
