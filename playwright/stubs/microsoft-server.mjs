// A stub Microsoft identity platform (Entra ID, v2.0 endpoints) for the end-to-end tests
// (port 3113), speaking the real protocol of the authorization-code flow with PKCE
// (msgraph-files-teams.md §0, docs/microsoft-signin.md):
//   GET  /health
//   GET  /{tenant}/v2.0/.well-known/openid-configuration   the tenant's OpenID configuration;
//        for organizations/common the issuer is `{origin}/{tenantid}/v2.0`, as Microsoft's
//   GET  /{tenant}/discovery/v2.0/keys                      the JWKS (one RSA key made at start)
//   GET  /{tenant}/oauth2/v2.0/authorize?client_id&response_type=code&redirect_uri
//        &response_mode=query&scope&state&nonce&code_challenge&code_challenge_method=S256
//        a 'Sign in' page asking for the account's e-mail address (or, with `login_hint`,
//        straight back); a bad request goes back with `error` and `error_description`
//   POST /{tenant}/oauth2/v2.0/authorize                    the page's form: 302 to
//        `redirect_uri?code=…&state=…&session_state=…`
//   POST /{tenant}/oauth2/v2.0/token                        form-encoded: client_id,
//        client_secret, grant_type=authorization_code, code (once), redirect_uri and
//        code_verifier (S256 of it must be the challenge) → token_type, scope, expires_in,
//        ext_expires_in, access_token and an RS256 id_token (iss, aud, exp, nonce, oid, tid,
//        email, preferred_username, name); errors as `{error, error_description, error_codes}`.
//        With `offline_access` in the granted scope the answer carries a refresh_token, and
//        grant_type=refresh_token (same client) answers a new access and refresh token.
//        Every access token issued is kept in `accessTokens` (token → account), so a Graph
//        stand-in (graph-server.mjs) can check the bearer tokens it is sent.
//   GET  /requests                                          the token requests seen (no secrets)
//
//   const stub = await startMicrosoftStub({ port, clientId, clientSecret })  // or:
//   node stubs/microsoft-server.mjs --port 3113
import crypto from 'node:crypto'
import http from 'node:http'

export const STUB_CLIENT_ID = '6731de76-14a6-49ae-97bc-6eba6914391e'
export const STUB_CLIENT_SECRET = 'stub~microsoft~secret'
/** The tenant id every stub account belongs to. */
export const STUB_TENANT_ID = '72f988bf-86f1-41af-91ab-2d7cd011db47'

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers })
  res.end(JSON.stringify(body))
}

function oauthError(res, status, error, code, description) {
  send(res, status, {
    error,
    error_description: `AADSTS${code}: ${description}`,
    error_codes: [code],
    timestamp: new Date().toISOString().replace('T', ' ').slice(0, 19) + 'Z',
    trace_id: crypto.randomUUID(),
    correlation_id: crypto.randomUUID(),
  })
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

const b64url = (buffer) => Buffer.from(buffer).toString('base64url')

/** The account's object id (`oid`, also its Graph user id): a UUID made from its address. */
export function objectId(email) {
  const hex = crypto.createHash('sha256').update(email.trim().toLowerCase()).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])

/** The authorize parameters carried through the sign-in page. */
const AUTHORIZE_PARAMS = [
  'client_id', 'response_type', 'redirect_uri', 'response_mode', 'scope', 'state', 'nonce',
  'code_challenge', 'code_challenge_method', 'prompt', 'login_hint',
]

export async function startMicrosoftStub({
  port = 0,
  clientId = STUB_CLIENT_ID,
  clientSecret = STUB_CLIENT_SECRET,
} = {}) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  const kid = `stub-${crypto.randomBytes(6).toString('hex')}`
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }
  /** code → what it was granted for. */
  const codes = new Map()
  /** refresh token → the grant it continues. */
  const refreshTokens = new Map()
  /** access token → `{ email, oid, scope }`. */
  const accessTokens = new Map()
  const requests = []
  let origin = ''

  const signIdToken = (claims) => {
    const header = b64url(JSON.stringify({ typ: 'JWT', alg: 'RS256', kid }))
    const payload = b64url(JSON.stringify(claims))
    const signature = crypto.sign('RSA-SHA256', Buffer.from(`${header}.${payload}`), privateKey)
    return `${header}.${payload}.${b64url(signature)}`
  }

  const metadata = (tenant) => ({
    token_endpoint: `${origin}/${tenant}/oauth2/v2.0/token`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
    jwks_uri: `${origin}/${tenant}/discovery/v2.0/keys`,
    response_modes_supported: ['query', 'fragment', 'form_post'],
    subject_types_supported: ['pairwise'],
    id_token_signing_alg_values_supported: ['RS256'],
    response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
    issuer: ['organizations', 'common', 'consumers'].includes(tenant)
      ? `${origin}/{tenantid}/v2.0`
      : `${origin}/${STUB_TENANT_ID}/v2.0`,
    request_uri_parameter_supported: false,
    userinfo_endpoint: 'https://graph.microsoft.com/oidc/userinfo',
    authorization_endpoint: `${origin}/${tenant}/oauth2/v2.0/authorize`,
    end_session_endpoint: `${origin}/${tenant}/oauth2/v2.0/logout`,
    http_logout_supported: true,
    frontchannel_logout_supported: true,
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nonce', 'preferred_username', 'name', 'tid', 'ver', 'email', 'oid'],
    cloud_instance_name: 'microsoftonline.com',
  })

  /** Why an authorize request cannot proceed, or undefined. */
  const authorizeProblem = (params) => {
    if (params.get('client_id') !== clientId) return ['unauthorized_client', 700016, `Application with identifier '${params.get('client_id')}' was not found in the directory.`]
    if (params.get('response_type') !== 'code') return ['unsupported_response_type', 70005, 'The provided value for the input parameter response_type is not allowed.']
    if (!params.get('code_challenge') || params.get('code_challenge_method') !== 'S256') return ['invalid_request', 50148, 'The code_challenge must be given with code_challenge_method S256.']
    if (!(params.get('scope') ?? '').split(' ').includes('openid')) return ['invalid_scope', 70011, "The provided value for the input parameter 'scope' is not valid."]
    return undefined
  }

  const redirectBack = (res, params, extra) => {
    const target = new URL(params.get('redirect_uri'))
    for (const [key, value] of Object.entries(extra)) target.searchParams.set(key, value)
    if (params.get('state') !== null) target.searchParams.set('state', params.get('state'))
    res.writeHead(302, { location: target.toString() })
    res.end()
  }

  const grantCode = (res, params, tenant, email) => {
    const address = email.trim().toLowerCase()
    const code = `0.A${crypto.randomBytes(48).toString('base64url')}`
    codes.set(code, {
      tenant,
      email: address,
      clientId: params.get('client_id'),
      redirectUri: params.get('redirect_uri'),
      challenge: params.get('code_challenge'),
      nonce: params.get('nonce'),
      scope: params.get('scope'),
    })
    redirectBack(res, params, { code, session_state: crypto.randomUUID() })
  }

  const signInPage = (params, tenant) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in to your account</title></head>
<body><main>
<h1>Sign in</h1>
<p>Stub Microsoft identity platform (tenant ${escapeHtml(tenant)})</p>
<form method="post">
${AUTHORIZE_PARAMS.filter((k) => params.get(k) !== null)
  .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params.get(k))}">`)
  .join('\n')}
<label for="email">Email address</label>
<input id="email" name="login" type="email" autocomplete="username" required>
<button type="submit">Next</button>
</form>
</main></body></html>`

  const authorize = async (req, res, url, tenant) => {
    const params =
      req.method === 'POST' ? new URLSearchParams(await readBody(req)) : url.searchParams
    if (!params.get('redirect_uri')) {
      res.writeHead(400, { 'content-type': 'text/plain' })
      return res.end("AADSTS900144: The request body must contain the following parameter: 'redirect_uri'.")
    }
    const problem = authorizeProblem(params)
    if (problem) {
      const [error, code, description] = problem
      return redirectBack(res, params, { error, error_description: `AADSTS${code}: ${description}` })
    }
    const email = req.method === 'POST' ? params.get('login') : params.get('login_hint')
    if (email) return grantCode(res, params, tenant, email)
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(signInPage(params, tenant))
  }

  const token = async (req, res, tenant) => {
    const form = new URLSearchParams(await readBody(req))
    requests.push({ path: `/${tenant}/oauth2/v2.0/token`, grantType: form.get('grant_type'), clientId: form.get('client_id') })
    if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return oauthError(res, 400, 'invalid_request', 900144, "The request body must contain the following parameter: 'grant_type'.")
    }
    if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
      return oauthError(res, 401, 'invalid_client', 7000215, 'Invalid client secret provided.')
    }
    if (form.get('grant_type') === 'refresh_token') {
      const grant = refreshTokens.get(form.get('refresh_token') ?? '')
      refreshTokens.delete(form.get('refresh_token') ?? '')
      if (!grant || grant.tenant !== tenant) {
        return oauthError(res, 400, 'invalid_grant', 70008, 'The provided authorization code or refresh token has expired or was already used.')
      }
      return send(res, 200, issueTokens(grant))
    }
    if (form.get('grant_type') !== 'authorization_code') {
      return oauthError(res, 400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.')
    }
    const grant = codes.get(form.get('code') ?? '')
    codes.delete(form.get('code') ?? '')
    if (!grant || grant.tenant !== tenant) {
      return oauthError(res, 400, 'invalid_grant', 70008, 'The provided authorization code or refresh token has expired or was already used.')
    }
    if (form.get('redirect_uri') !== grant.redirectUri) {
      return oauthError(res, 400, 'invalid_grant', 50148, 'The redirect_uri does not match the one in the authorization request.')
    }
    const verifier = form.get('code_verifier') ?? ''
    if (b64url(crypto.createHash('sha256').update(verifier).digest()) !== grant.challenge) {
      return oauthError(res, 400, 'invalid_grant', 501481, 'The Code_Verifier does not match the code_challenge supplied in the authorization request.')
    }
    const now = Math.floor(Date.now() / 1000)
    const uuid = objectId(grant.email)
    const local = grant.email.split('@')[0]
    const idToken = signIdToken({
      ver: '2.0',
      iss: `${origin}/${STUB_TENANT_ID}/v2.0`,
      sub: b64url(crypto.createHash('sha256').update(`${grant.clientId}:${uuid}`).digest()).slice(0, 43),
      aud: grant.clientId,
      exp: now + 3600,
      iat: now,
      nbf: now,
      name: local.charAt(0).toUpperCase() + local.slice(1),
      preferred_username: grant.email,
      email: grant.email,
      oid: uuid,
      tid: STUB_TENANT_ID,
      nonce: grant.nonce,
      aio: b64url(crypto.randomBytes(24)),
    })
    send(res, 200, { ...issueTokens(grant), id_token: idToken })
  }

  /** A new access token (and a refresh token when `offline_access` was granted). */
  const issueTokens = (grant) => {
    const scopes = grant.scope.split(' ')
    const accessToken = `stub-access-${crypto.randomBytes(24).toString('base64url')}`
    accessTokens.set(accessToken, { email: grant.email, oid: objectId(grant.email), scope: grant.scope })
    const answer = {
      token_type: 'Bearer',
      scope: scopes.filter((s) => !['openid', 'offline_access'].includes(s)).concat(['openid']).join(' '),
      expires_in: 4232,
      ext_expires_in: 4232,
      access_token: accessToken,
    }
    if (scopes.includes('offline_access')) {
      const refreshToken = `stub-refresh-${crypto.randomBytes(32).toString('base64url')}`
      refreshTokens.set(refreshToken, grant)
      answer.refresh_token = refreshToken
    }
    return answer
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://stub')
    const fail = (error) => send(res, 500, { error: 'server_error', error_description: String(error) })
    if (url.pathname === '/health') return send(res, 200, { ok: true })
    if (url.pathname === '/requests') return send(res, 200, requests)
    const match = url.pathname.match(/^\/([A-Za-z0-9.\-_]+)\/(v2\.0\/\.well-known\/openid-configuration|discovery\/v2\.0\/keys|oauth2\/v2\.0\/authorize|oauth2\/v2\.0\/token)$/)
    if (!match) return send(res, 404, { error: 'not_found' })
    const [, tenant, what] = match
    if (what.startsWith('v2.0') && req.method === 'GET') return send(res, 200, metadata(tenant))
    if (what.startsWith('discovery') && req.method === 'GET') return send(res, 200, { keys: [jwk] })
    if (what.endsWith('authorize') && (req.method === 'GET' || req.method === 'POST')) {
      return authorize(req, res, url, tenant).catch(fail)
    }
    if (what.endsWith('token') && req.method === 'POST') return token(req, res, tenant).catch(fail)
    send(res, 405, { error: 'method_not_allowed' })
  })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${server.address().port}`
  return {
    origin,
    requests,
    accessTokens,
    // Drop kept-alive connections too, so the file's Voicemark server can stop at once.
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 3113)
  const stub = await startMicrosoftStub({ port })
  console.log(`stub Microsoft identity platform on ${stub.origin}`)
}
