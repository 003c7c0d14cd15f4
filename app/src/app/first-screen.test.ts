// Which paths start the shell's code with the entry (app/first-screen.ts): the signed-in
// pages of the real route table, and none of the public ones.

import { describe, expect, it, vi } from 'vitest'

// The route table without a browser: only making the router needs `window`.
vi.mock('react-router', async (original) => ({
  ...(await original<typeof import('react-router')>()),
  createBrowserRouter: () => ({}),
}))

const { routes } = await import('./router')
const { opensInShell } = await import('./first-screen')

describe('opensInShell', () => {
  it('is true for the signed-in first screens', () => {
    for (const path of ['/', '/feedback', '/notifications', '/leaders/tasks', '/notifications/abc/edit', '/admin/users']) {
      expect(opensInShell(routes, path), path).toBe(true)
    }
  })

  it('is false for public pages and for a path no page has', () => {
    for (const path of ['/login', '/account/forgot', '/preferences/t0ken', '/submissions/1/t0ken', '/no/such/page']) {
      expect(opensInShell(routes, path), path).toBe(false)
    }
  })
})
