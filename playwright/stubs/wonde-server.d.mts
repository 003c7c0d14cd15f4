// Types of wonde-server.mjs for the TypeScript specs.
export interface WondeStub {
  origin: string
  /** Every request, as "GET /v1.0/schools/…?…". */
  requests: string[]
  stop(): Promise<void>
}

export function startWondeStub(options?: {
  port?: number
  token?: string
  schoolId?: string
  pupils?: number
  pageDelayMs?: number
}): Promise<WondeStub>
