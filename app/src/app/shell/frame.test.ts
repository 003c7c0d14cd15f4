// The frame's rules: the shortcut hint per platform and which pages use a wide screen.

import { describe, expect, it } from 'vitest'

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
