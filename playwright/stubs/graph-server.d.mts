// Types of graph-server.mjs for the TypeScript specs.
import type { MicrosoftStub } from './microsoft-server.mjs'

export const TRANSCRIPT_LINES: string[]
export const NOTES_TEXT: string
export const SCHEME_TEXT: string
export const SITE: { id: string; displayName: string }

export interface GraphDownloadSeen {
  path: string
  uniqueId: string | null
  /** The Authorization header the pre-authenticated host was sent (null: none). */
  authorization: string | null
}

export interface GraphStub {
  origin: string
  /** The `VOICEMARK_GRAPH_URL` to give the server (`{origin}/v1.0`). */
  url: string
  seen: GraphDownloadSeen[]
  stop(): Promise<void>
}

export function startGraphStub(options: { identity: MicrosoftStub; port?: number }): Promise<GraphStub>
