// The first frame's script: it draws a page's heading only for its own path and only when the
// browser's session state is the one that page is shown in.

import { describe, expect, it } from 'vitest'

import { FIRST_FRAMES, firstFrameScript, frameHtml, SIGNED_IN_COOKIE } from './first-frame'

/** Runs the script as the browser would, for `pathname` and `cookie`; returns what it drew. */
function draw(pathname: string, cookie: string, withSlot = true): string | null {
  const slot = { innerHTML: '' }
  const document = { cookie, getElementById: (id: string) => (withSlot && id === 'first-frame' ? slot : null) }
  new Function('location', 'document', firstFrameScript())({ pathname }, document)
  return slot.innerHTML || null
}

const signedIn = `a=b; ${SIGNED_IN_COOKIE}=1; c=d`

describe('the first frame script', () => {
  it('draws a signed-in page when the browser holds a session', () => {
    const drawn = draw('/feedback', signedIn)
    expect(drawn).toBe(frameHtml(FIRST_FRAMES['/feedback']))
    expect(drawn).toContain('<h1 class="text-3xl font-bold tracking-tight">Feedback Hub</h1>')
    expect(drawn).toContain('Work handed in and waiting for your feedback, oldest first.')
    // The same page with a trailing slash, and the Dashboard at the root.
    expect(draw('/leaders/tasks/', signedIn)).toContain('>Tasks</h1>')
    expect(draw('/', signedIn)).toContain('>Dashboard</h1>')
  })

  it('draws nothing of a signed-in page for a signed-out browser, and the sign-in page only for one', () => {
    expect(draw('/feedback', '')).toBeNull()
    expect(draw('/feedback', `${SIGNED_IN_COOKIE}=0`)).toBeNull()
    expect(draw('/feedback', `x${SIGNED_IN_COOKIE}=1`)).toBeNull()
    expect(draw('/login', '')).toContain('>Sign in</h1>')
    expect(draw('/login', signedIn)).toBeNull()
  })

  it('draws nothing for a page without a frame, or without the slot', () => {
    expect(draw('/feedback/comment-bank', signedIn)).toBeNull()
    expect(draw('/__proto__', signedIn)).toBeNull()
    expect(draw('/feedback', signedIn, false)).toBeNull()
  })

  it('escapes the texts it writes as HTML', () => {
    const html = frameHtml({ title: 'A & <b>', intro: '"quoted"', signedIn: true, width: 'max-w-4xl' })
    expect(html).toContain('A &#38; &#60;b&#62;')
    expect(html).toContain('&#34;quoted&#34;')
    expect(html).not.toContain('<b>')
  })
})
