// Types of xporter-server.mjs for the TypeScript specs.
export interface XporterStub {
  origin: string
  /** Every request, as "GET /api/ims/oneroster/v1p1/users?…". */
  requests: string[]
  stop(): Promise<void>
}

export function startXporterStub(options?: {
  port?: number
  groupcallId?: string
  secret?: string
  pupils?: number
  pageDelayMs?: number
}): Promise<XporterStub>
