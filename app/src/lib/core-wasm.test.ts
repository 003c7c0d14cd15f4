// The wasm bindings themselves, loaded in Node from the same .wasm the app ships.

import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'

import {
  coreVersion,
  emailError,
  filenameError,
  formatDate,
  hasRole,
  initSync,
  languages,
  limits,
  passwordError,
  uploadSizeError,
  uploadTypeError,
} from '../wasm/core_wasm.js'

const PASSWORD_RULE =
  'Passwords must be at least 8 characters and should include at least 1 number and 1 uppercase letter.'

beforeAll(() => {
  initSync({ module: readFileSync(new URL('../wasm/core_wasm_bg.wasm', import.meta.url)) })
})

describe('core wasm bindings', () => {
  it('reports its version', () => {
    expect(coreVersion()).toBe('0.1.0')
  })

  it('explains the password rule for a weak password and accepts a good one', () => {
    expect(passwordError('short')).toBe(PASSWORD_RULE)
    expect(passwordError('alllowercase1')).toBe(PASSWORD_RULE)
    expect(passwordError('Longenough7')).toBeUndefined()
  })

  it('lets a superadmin through every role check and keeps a teacher out of admin', () => {
    expect(hasRole('SUPERADMIN', ['ADMIN'])).toBe(true)
    expect(hasRole('SUPERADMIN', [])).toBe(true)
    expect(hasRole('TEACHER', ['ADMIN'])).toBe(false)
    expect(hasRole('TEACHER', ['ADMIN', 'TEACHER'])).toBe(true)
  })

  it('rejects an unknown role with an error rather than a trap', () => {
    expect(() => hasRole('JANITOR', ['ADMIN'])).toThrow()
  })

  it('formats dates as dd/MM/yyyy[, HH:mm]', () => {
    const millis = Date.UTC(2026, 2, 7, 9, 5) // 7 March 2026, 09:05
    expect(formatDate(millis, true)).toBe('07/03/2026, 09:05')
    expect(formatDate(millis, false)).toBe('07/03/2026')
  })

  it('checks upload sizes against the limit it exports', () => {
    const { maxUploadBytes, maxPhotosPerAnalysis } = limits() as {
      maxUploadBytes: number
      maxPhotosPerAnalysis: number
    }
    expect(maxPhotosPerAnalysis).toBe(10)
    expect(maxUploadBytes).toBe(50 * 1024 * 1024)
    expect(uploadSizeError(maxUploadBytes)).toBeUndefined()
    expect(uploadSizeError(maxUploadBytes + 1)).toEqual(expect.any(String))
  })

  it('checks filenames with the spec text', () => {
    expect(filenameError('   ')).toBe('Filename is required')
    expect(filenameError('')).toBe('Filename is required')
    expect(filenameError('x'.repeat(201))).toBe('Use at most 200 characters.')
    expect(filenameError('Year 7 essays')).toBeUndefined()
  })

  it('checks e-mail addresses with one rule', () => {
    expect(emailError('ada@school.test')).toBeUndefined()
    expect(emailError('ada@school')).toBe('Enter a valid e-mail address.')
    expect(emailError('a b@school.test')).toBe('Enter a valid e-mail address.')
  })

  it('lists about a hundred languages by code and English name', () => {
    const list = languages() as { code: string; name: string }[]
    expect(list.length).toBeGreaterThanOrEqual(95)
    expect(list).toContainEqual({ code: 'en', name: 'English' })
    expect(list).toContainEqual({ code: 'cy', name: 'Welsh' })
  })

  it('checks upload types per kind and rejects an unknown kind with an error', () => {
    expect(uploadTypeError('voiceNote', 'audio/webm;codecs=opus')).toBeUndefined()
    expect(uploadTypeError('voiceNote', 'video/mp4')).toMatch(/^A voice note must be a recording/)
    expect(uploadTypeError('submissionFile', 'application/pdf')).toBeUndefined()
    expect(uploadTypeError('file', 'text/html')).toMatch(/^This type of file cannot be uploaded/)
    expect(() => uploadTypeError('photo', 'image/jpeg')).toThrow()
  })
})
