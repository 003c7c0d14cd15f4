// The app's layers, checked on every `npm test` so they stay as docs/architecture.md draws
// them (bulletproof-react's rule, app -> features -> shared):
// - a feature never imports another feature (they meet in app/ or through lib/capture.tsx);
// - workers import only lib/, workers/ and the generated wasm/;
// - shared code (lib/, components/) imports no feature and nothing from app/;
// - components call the server through their feature's api/ hooks, never `rpcMutation` or
//   `rpcQuery` themselves.

import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { describe, expect, it } from 'vitest'

const SRC = path.dirname(fileURLToPath(import.meta.url))

/** Every .ts/.tsx file under src/, as a path relative to src/ with '/' separators. */
function sourceFiles(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'wasm' || entry.name === 'generated' ? [] : sourceFiles(full)
    return /\.tsx?$/.test(entry.name) ? [path.relative(SRC, full).split(path.sep).join('/')] : []
  })
}

/** The modules `code` imports (static, dynamic, re-exports and `new URL(..., import.meta.url)`). */
export function importedSpecifiers(code: string): string[] {
  const found: string[] = []
  const patterns = [
    /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]/g,
    /(?:^|[\s;])import\s*['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g,
  ]
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1])
  return found
}

/** `specifier` as a path relative to src/ ('' for packages). */
export function resolveFromSrc(file: string, specifier: string): string {
  if (specifier.startsWith('@/')) return specifier.slice(2)
  if (!specifier.startsWith('.')) return ''
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
}

const top = (p: string) => p.split('/')[0]
const featureOf = (p: string) => (p.startsWith('features/') ? p.split('/')[1] : undefined)

/** The layer rules one import breaks (empty when it is allowed). */
export function violations(file: string, target: string): string[] {
  if (!target) return []
  const broken: string[] = []
  const from = featureOf(file)
  const to = featureOf(target)
  if (from && to && from !== to) broken.push(`feature '${from}' imports feature '${to}'`)
  if (top(file) === 'workers' && !['lib', 'workers', 'wasm'].includes(top(target)))
    broken.push(`a worker imports ${top(target)}/`)
  if ((top(file) === 'lib' || top(file) === 'components') && (to || top(target) === 'app'))
    broken.push(`shared ${top(file)}/ imports ${to ? `feature '${to}'` : 'app/'}`)
  return broken
}

describe('the layer checker', () => {
  it('finds every kind of import', () => {
    const code = [
      "import { a } from '@/features/x/api/a'",
      "import type { B } from '../b'",
      "export { c } from './c'",
      "import './side-effect.css'",
      "const D = lazy(() => import('@/features/d/page'))",
      "new Worker(new URL('../../workers/w.worker.ts', import.meta.url))",
    ].join('\n')
    expect(importedSpecifiers(code)).toEqual(
      expect.arrayContaining(['@/features/x/api/a', '../b', './c', './side-effect.css', '@/features/d/page', '../../workers/w.worker.ts']),
    )
  })

  it('flags a cross-feature import, a worker importing a feature, and shared code importing up', () => {
    const at = (file: string, spec: string) => violations(file, resolveFromSrc(file, spec))
    expect(at('features/dictation/components/drawer.tsx', '@/features/voice-notes/api/upload')).toHaveLength(1)
    expect(at('features/dictation/components/drawer.tsx', '../../voice-notes/recording')).toHaveLength(1)
    expect(at('workers/dictation.worker.ts', '../features/dictation/worker-protocol')).toHaveLength(1)
    expect(at('lib/capture.tsx', '@/features/photo-analyser')).toHaveLength(1)
    expect(at('components/section.tsx', '@/app/shell/shell')).toHaveLength(1)
    // Allowed: within a feature, to shared code, app composing features, workers to lib.
    expect(at('features/dictation/components/drawer.tsx', '../api/system-features')).toEqual([])
    expect(at('features/dictation/components/drawer.tsx', '@/lib/capture')).toEqual([])
    expect(at('app/shell/shell.tsx', '@/features/dictation/dictation-provider')).toEqual([])
    expect(at('workers/photo.worker.ts', '../lib/jpeg')).toEqual([])
    expect(at('workers/photo.worker.ts', '../wasm/core_wasm_media.js')).toEqual([])
  })
})

describe('the app source', () => {
  const files = sourceFiles().filter((file) => !file.endsWith('architecture.test.ts'))

  it('is found', () => {
    expect(files.length).toBeGreaterThan(50)
    expect(files).toContain('app/router.tsx')
  })

  it('keeps features apart, workers on lib/, and shared code free of features and app/', () => {
    const broken = files.flatMap((file) => {
      const code = fs.readFileSync(path.join(SRC, file), 'utf8')
      return importedSpecifiers(code).flatMap((spec) =>
        violations(file, resolveFromSrc(file, spec)).map((rule) => `${file}: ${rule} (${spec})`),
      )
    })
    expect(broken).toEqual([])
  })

  it("calls the server from components only through their feature's api/ hooks", () => {
    const direct = files.filter(
      (file) =>
        /^features\/[^/]+\/components\//.test(file) &&
        /\brpc(Mutation|Query)\(/.test(fs.readFileSync(path.join(SRC, file), 'utf8')),
    )
    expect(direct).toEqual([])
  })
})
