// The frame's rules: the shortcut hint per platform and which pages use a wide screen.

import { describe, expect, it } from 'vitest'

import { FIRST_FRAMES } from '@/lib/first-frame'

import { pageWidthClass, paletteShortcutHint } from './frame'

describe('paletteShortcutHint', () => {
  it('reads ⌘K on Apple platforms and Ctrl K elsewhere', () => {
    expect(paletteShortcutHint('MacIntel')).toBe('⌘K')
    expect(paletteShortcutHint('macOS')).toBe('⌘K')
    expect(paletteShortcutHint('iPad')).toBe('⌘K')
    expect(paletteShortcutHint('Win32')).toBe('Ctrl K')
    expect(paletteShortcutHint('Linux x86_64')).toBe('Ctrl K')
    expect(paletteShortcutHint('')).toBe('Ctrl K')
  })
})

describe('pageWidthClass', () => {
  it('gives lists and tables the width of a large screen, forms a readable column', () => {
    for (const path of ['/', '/notifications', '/leaders/tasks', '/leaders/users', '/users', '/schools', '/admin/pupils', '/students/p1']) {
      expect(pageWidthClass(path), path).toBe('max-w-screen-2xl')
    }
    for (const path of ['/notifications/create', '/notifications/n1/edit', '/settings', '/leaders/tasks/create', '/leaders/templates/t1/edit', '/support']) {
      expect(pageWidthClass(path), path).toBe('max-w-4xl')
    }
  })
})

describe('the first frames (lib/first-frame.ts)', () => {
  it('draw each signed-in page at the width the shell gives it', () => {
    for (const [path, frame] of Object.entries(FIRST_FRAMES)) {
      if (frame.signedIn) expect(frame.width, path).toBe(pageWidthClass(path))
    }
  })
})
