// A stub Deepgram-compatible speech server for the end-to-end tests (port 3109):
// GET /health; POST /v1/auth/grant (minting a short-lived token); the /v1/listen WebSocket.
// The WebSocket part is completed by the dictation work; until then only /health answers.
import http from 'node:http'

const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 3109)

http
  .createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' })
      return res.end('{"ok":true}')
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{"err_code":"NOT_FOUND","err_msg":"Not found"}')
  })
  .listen(port, '127.0.0.1')
