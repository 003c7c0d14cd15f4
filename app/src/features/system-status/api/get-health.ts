//! GET /api/health: whether the server and its database answer.

import { useQuery } from '@tanstack/react-query'

/** The server's health as the app shows it. */
export type ServerHealth = { ok: true; version?: string } | { ok: false; reason: string }

interface HealthBody {
  status?: string
  database?: string
  version?: string
  reason?: string
}

/** Asks the server; a 503 (database down) resolves with its reason, a network failure rejects. */
export async function getHealth(signal?: AbortSignal): Promise<ServerHealth> {
  const response = await fetch('/api/health', { signal, headers: { accept: 'application/json' } })
  let body: HealthBody = {}
  try {
    body = (await response.json()) as HealthBody
  } catch {
    // Not JSON (e.g. a proxy's error page): fall back to the status code below.
  }
  if (response.ok && body.status === 'ok') return { ok: true, version: body.version }
  return { ok: false, reason: body.reason ?? `HTTP ${response.status}` }
}

export function useHealth() {
  return useQuery({
    queryKey: ['health'],
    queryFn: ({ signal }) => getHealth(signal),
    retry: false,
  })
}
