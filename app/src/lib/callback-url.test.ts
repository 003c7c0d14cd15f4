// Where sign-in leads: same-origin callback URLs only, and the leaders-area rule.

import { describe, expect, it } from 'vitest'

import { afterSignInPath, isLeadersPath, loginRedirect, sameOriginPath } from './callback-url'

const origin = 'https://app.voicemark.test'

describe('sameOriginPath', () => {
  it('keeps relative paths with their query and hash', () => {
    expect(sameOriginPath('/feedback', origin)).toBe('/feedback')
    expect(sameOriginPath('/notifications/create?type=GENERAL#top', origin)).toBe('/notifications/create?type=GENERAL#top')
  })

  it('keeps absolute URLs of the same origin, as paths', () => {
    expect(sameOriginPath(`${origin}/students/7`, origin)).toBe('/students/7')
  })

  it('refuses other origins, protocol-relative URLs and other schemes', () => {
    expect(sameOriginPath('https://evil.test/feedback', origin)).toBeUndefined()
    expect(sameOriginPath('http://app.voicemark.test/feedback', origin)).toBeUndefined()
    expect(sameOriginPath('//evil.test/x', origin)).toBeUndefined()
    expect(sameOriginPath('/\\evil.test/x', origin)).toBeUndefined()
    expect(sameOriginPath('javascript:alert(1)', origin)).toBeUndefined()
    expect(sameOriginPath('feedback', origin)).toBeUndefined()
    expect(sameOriginPath('', origin)).toBeUndefined()
    expect(sameOriginPath(null, origin)).toBeUndefined()
  })

  it('never leads back to /login', () => {
    expect(sameOriginPath('/login?error=x', origin)).toBeUndefined()
  })
})

describe('afterSignInPath', () => {
  it('goes to the callback or home', () => {
    expect(afterSignInPath('/feedback', origin, false)).toBe('/feedback')
    expect(afterSignInPath(null, origin, false)).toBe('/')
    expect(afterSignInPath('https://evil.test/', origin, false)).toBe('/')
  })

  it('keeps redirectToLeaders users in the leaders area', () => {
    expect(afterSignInPath('/feedback', origin, true)).toBe('/leaders/tasks')
    expect(afterSignInPath(null, origin, true)).toBe('/leaders/tasks')
    expect(afterSignInPath('/leaders/templates', origin, true)).toBe('/leaders/templates')
  })
})

describe('isLeadersPath', () => {
  it('is /leaders and below, nothing else', () => {
    expect(isLeadersPath('/leaders')).toBe(true)
    expect(isLeadersPath('/leaders/tasks/1/edit')).toBe(true)
    expect(isLeadersPath('/leadership')).toBe(false)
    expect(isLeadersPath('/')).toBe(false)
  })
})

describe('loginRedirect', () => {
  it('asks for a session and remembers the way back', () => {
    const url = new URL(loginRedirect('/feedback?x=1', { endedDisabled: false, signedOutByUser: false }), origin)
    expect(url.pathname).toBe('/login')
    expect(url.searchParams.get('callbackUrl')).toBe('/feedback?x=1')
    expect(url.searchParams.get('error')).toBe('SessionRequired')
  })

  it('says AccountDisabled when a disabled session ended, and nothing after Log out', () => {
    expect(loginRedirect('/', { endedDisabled: true, signedOutByUser: false })).toBe('/login?error=AccountDisabled')
    expect(loginRedirect('/', { endedDisabled: false, signedOutByUser: true })).toBe('/login')
  })
})
