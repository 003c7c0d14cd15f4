// A stub Stripe for the end-to-end tests (stripe.md §0, §1, §3, §4). It speaks the REST the
// server uses — Bearer key, form-encoded bodies with bracketed keys, an Idempotency-Key on
// POSTs, Stripe's JSON objects and error objects:
//   POST /v1/customers                 (email, name, metadata[school_id])  → customer
//   POST /v1/customer_sessions         (customer, components[pricing_table][enabled]=true)
//   POST /v1/billing_portal/sessions   (customer, return_url)              → {url}
//   GET  /v1/subscriptions/:id
// and serves a stand-in for Stripe's pricing table script:
//   GET  /pricing-table.js   defines <stripe-pricing-table>: a 'Pro' plan and a 'Subscribe'
//        button. Clicking it POSTs /test/subscribe (the page's webhook URL, the customer
//        session's secret, the client reference), on which this stub sends a correctly signed
//        `customer.subscription.created` webhook (product STUB_STRIPE_PRO, quantity 10) to the
//        server and waits for its 200; the script then goes to the page with `?success=true`,
//        as Stripe's redirect after Checkout does.
//   GET  /requests           every REST request accepted (path and form), for assertions.
//
//   const stub = await startStripeStub({ key, webhookSecret, proProduct })  // or:
//   node stubs/stripe-server.mjs --port 3110
import crypto from 'node:crypto'
import http from 'node:http'

/** Stripe's error object. */
function stripeError(res, status, type, code, message, param) {
  send(res, status, { error: { type, code, message, param, doc_url: `https://stripe.com/docs/error-codes/${code}` } })
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*', ...headers })
  res.end(JSON.stringify(body))
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** `Stripe-Signature` for `body` at `t` (stripe.md §4.1). */
export function sign(body, secret, t = Math.floor(Date.now() / 1000)) {
  const v1 = crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
  return `t=${t},v1=${v1}`
}

const PRICING_TABLE_JS = (origin) => `
// Stand-in for https://js.stripe.com/v3/pricing-table.js (end-to-end tests only).
class StubPricingTable extends HTMLElement {
  connectedCallback() {
    if (this.shadowRoot) return
    const root = this.attachShadow({ mode: 'open' })
    root.innerHTML = '<section aria-label="Plans"><h3>Pro</h3><p>Per user, per month.</p>' +
      '<button type="button">Subscribe</button><p role="status"></p></section>'
    const button = root.querySelector('button')
    const status = root.querySelector('[role=status]')
    button.addEventListener('click', async () => {
      button.disabled = true
      const answer = await fetch(${JSON.stringify(origin)} + '/test/subscribe', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({
          webhookUrl: location.origin + '/api/stripe/webhook',
          clientSecret: this.getAttribute('customer-session-client-secret'),
          clientReferenceId: this.getAttribute('client-reference-id'),
          pricingTableId: this.getAttribute('pricing-table-id'),
          publishableKey: this.getAttribute('publishable-key'),
        }),
      })
      if (!answer.ok) {
        status.textContent = 'Payment failed: ' + (await answer.text())
        button.disabled = false
        return
      }
      location.assign(location.pathname + '?success=true')
    })
  }
}
if (!customElements.get('stripe-pricing-table')) customElements.define('stripe-pricing-table', StubPricingTable)
`

export async function startStripeStub({
  port = 0,
  key = 'sk_test_stub',
  webhookSecret = 'whsec_stub',
  proProduct = 'prod_STUB_PRO',
  publishableKey = 'pk_test_stub',
  pricingTableId = 'prctbl_stub',
} = {}) {
  const requests = []
  const customers = new Map()
  const subscriptions = new Map()
  let origin = ''

  async function subscribe(req, res) {
    const body = JSON.parse(await readBody(req))
    const customer = /^cuss_secret_(cus_\w+)$/.exec(body.clientSecret ?? '')?.[1]
    if (!customer || !customers.has(customer)) return send(res, 400, { error: 'unknown customer session' })
    if (body.pricingTableId !== pricingTableId || body.publishableKey !== publishableKey)
      return send(res, 400, { error: 'wrong pricing table or publishable key' })
    if (customers.get(customer).metadata.school_id !== body.clientReferenceId)
      return send(res, 400, { error: 'client-reference-id is not the customer’s school' })
    const created = Math.floor(Date.now() / 1000)
    const id = `sub_${crypto.randomBytes(6).toString('hex')}`
    const subscription = {
      id,
      object: 'subscription',
      customer,
      status: 'active',
      cancel_at_period_end: false,
      created,
      metadata: {},
      items: {
        object: 'list',
        data: [
          {
            id: `si_${id}`,
            object: 'subscription_item',
            quantity: 10,
            current_period_start: created,
            current_period_end: created + 30 * 86400,
            price: { id: 'price_pro_seat', object: 'price', product: proProduct, unit_amount: 300, currency: 'gbp', recurring: { interval: 'month' } },
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
    }
    subscriptions.set(id, subscription)
    const event = JSON.stringify({
      id: `evt_${crypto.randomBytes(8).toString('hex')}`,
      object: 'event',
      api_version: '2025-03-31.basil',
      created,
      type: 'customer.subscription.created',
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: subscription },
    })
    const delivered = await fetch(body.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': sign(event, webhookSecret) },
      body: event,
    })
    if (!delivered.ok) return send(res, 502, { error: `webhook answered ${delivered.status}` })
    send(res, 200, { subscription: id })
  }

  async function rest(req, res, url) {
    if (req.headers.authorization !== `Bearer ${key}`)
      return stripeError(res, 401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided: sk_test_****')
    if (req.method === 'GET') {
      const match = /^\/v1\/subscriptions\/(\w+)$/.exec(url.pathname)
      const subscription = match && subscriptions.get(match[1])
      if (!subscription)
        return stripeError(res, 404, 'invalid_request_error', 'resource_missing', `No such subscription: '${match?.[1]}'`, 'id')
      requests.push({ path: `GET ${url.pathname}`, form: {} })
      return send(res, 200, subscription)
    }
    if (req.headers['content-type'] !== 'application/x-www-form-urlencoded')
      return stripeError(res, 400, 'invalid_request_error', 'parameter_invalid', 'Form bodies only')
    if (!req.headers['idempotency-key'])
      return stripeError(res, 400, 'invalid_request_error', 'idempotency_key_missing', 'No Idempotency-Key')
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)))
    const missing = (names) => names.find((n) => !form[n])
    const need = {
      '/v1/customers': ['email', 'name', 'metadata[school_id]'],
      '/v1/customer_sessions': ['customer', 'components[pricing_table][enabled]'],
      '/v1/billing_portal/sessions': ['customer', 'return_url'],
    }[url.pathname]
    if (!need) return stripeError(res, 404, 'invalid_request_error', 'resource_missing', `Unrecognized request URL (POST: ${url.pathname})`)
    const absent = missing(need)
    if (absent) return stripeError(res, 400, 'invalid_request_error', 'parameter_missing', `Missing required param: ${absent}.`, absent)
    requests.push({ path: `POST ${url.pathname}`, form })
    const created = Math.floor(Date.now() / 1000)
    if (url.pathname === '/v1/customers') {
      const id = `cus_${crypto.randomBytes(6).toString('hex')}`
      const customer = { id, object: 'customer', created, livemode: false, email: form.email, name: form.name, metadata: { school_id: form['metadata[school_id]'] } }
      customers.set(id, customer)
      return send(res, 200, customer)
    }
    if (!customers.has(form.customer))
      return stripeError(res, 400, 'invalid_request_error', 'resource_missing', `No such customer: '${form.customer}'`, 'customer')
    if (url.pathname === '/v1/customer_sessions') {
      if (form['components[pricing_table][enabled]'] !== 'true')
        return stripeError(res, 400, 'invalid_request_error', 'parameter_invalid', 'Enable a component', 'components')
      return send(res, 200, {
        object: 'customer_session',
        client_secret: `cuss_secret_${form.customer}`,
        components: { pricing_table: { enabled: true } },
        created,
        customer: form.customer,
        expires_at: created + 1800,
        livemode: false,
      })
    }
    return send(res, 200, {
      id: `bps_${crypto.randomBytes(6).toString('hex')}`,
      object: 'billing_portal.session',
      customer: form.customer,
      livemode: false,
      return_url: form.return_url,
      url: `${origin}/portal?return_url=${encodeURIComponent(form.return_url)}`,
    })
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://stub')
    const fail = (error) => send(res, 500, { error: String(error) })
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type', 'access-control-allow-methods': 'POST' })
      return res.end()
    }
    if (url.pathname === '/health') return send(res, 200, { ok: true })
    if (url.pathname === '/requests') return send(res, 200, requests)
    if (url.pathname === '/pricing-table.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' })
      return res.end(PRICING_TABLE_JS(origin))
    }
    if (url.pathname === '/portal') {
      // The billing portal page: a link back, as Stripe's portal has.
      res.writeHead(200, { 'content-type': 'text/html' })
      return res.end(`<!doctype html><title>Billing portal</title><h1>Billing portal</h1><a href="${url.searchParams.get('return_url')}">Return</a>`)
    }
    if (url.pathname === '/test/subscribe' && req.method === 'POST') return subscribe(req, res).catch(fail)
    if (url.pathname.startsWith('/v1/')) return rest(req, res, url).catch(fail)
    send(res, 404, { error: 'not found' })
  })
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${server.address().port}`
  return {
    origin,
    requests,
    // close() alone waits for idle keep-alive connections (the server's HTTP client keeps
    // them for a while), which outlasted the afterAll hook and left the file's Voicemark
    // server running: drop them.
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 3110)
  const stub = await startStripeStub({
    port,
    key: process.env.STUB_STRIPE_KEY,
    webhookSecret: process.env.STUB_STRIPE_WEBHOOK_SECRET,
    proProduct: process.env.STUB_STRIPE_PRO,
  })
  console.log(`stub Stripe on ${stub.origin}`)
}
