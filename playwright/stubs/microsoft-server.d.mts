// Types of microsoft-server.mjs for the TypeScript specs.
export const STUB_CLIENT_ID: string
export const STUB_CLIENT_SECRET: string
export const STUB_TENANT_ID: string

export interface MicrosoftStubRequest {
  /** `/{tenant}/oauth2/v2.0/token` */
  path: string
  grantType: string | null
  clientId: string | null
}

export interface MicrosoftAccessGrant {
  email: string
  /** The account's object id, also its Graph user id. */
  oid: string
  scope: string
}

/** The object id (`oid`) the stub gives the account with this address. */
export function objectId(email: string): string

export interface MicrosoftStub {
  origin: string
  /** Every token request, in order (no secrets). */
  requests: MicrosoftStubRequest[]
  /** Every access token issued, with the account it was issued to. */
  accessTokens: Map<string, MicrosoftAccessGrant>
  stop(): Promise<void>
}

export function startMicrosoftStub(options?: {
  port?: number
  clientId?: string
  clientSecret?: string
}): Promise<MicrosoftStub>
