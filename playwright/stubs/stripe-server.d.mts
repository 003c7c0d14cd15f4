// Types of stripe-server.mjs for the TypeScript specs.
export interface StripeStubRequest {
  /** `POST /v1/customers`, `GET /v1/subscriptions/sub_…`, … */
  path: string
  form: Record<string, string>
}

export interface StripeStub {
  origin: string
  /** Every REST request accepted, in order. */
  requests: StripeStubRequest[]
  stop(): Promise<void>
}

export function sign(body: string, secret: string, t?: number): string

export function startStripeStub(options?: {
  port?: number
  key?: string
  webhookSecret?: string
  proProduct?: string
  publishableKey?: string
  pricingTableId?: string
}): Promise<StripeStub>
