// Dictation benchmark: 15 minutes of 48 kHz audio through the product's dictation worker
// (wasm DictationRecorder) and a plain-JavaScript baseline, in one page
// (app/bench/dictation.ts). Prints stop-to-WAV time and peak memory for both, next to the
// WAV's size and the goals (WAV within 150 ms of stop; peak memory under 2x the WAV).
// Run with `bash bench/browser.sh dictation` (playwright/bench.config.ts serves dist-bench
// with precise memory info and --expose-gc). Figures are printed, not asserted.
import fs from 'node:fs'
import path from 'node:path'

import { expect, test } from '@playwright/test'

interface Figures {
  stopToWavMs: number
  peakBytes: number
  peakHeapBytes: number
  peakWasmBytes: number
  peakBlobBytes: number
  partsInMemoryBytes?: number
  storedBytes?: number
  wavBytes: number
  wavSeconds: number
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

test('dictation: stop-to-WAV and peak memory for 15 minutes, ours against plain JavaScript', async ({ page }) => {
  test.setTimeout(600_000)
  await page.goto('/bench/dictation.html')
  await page.waitForFunction(() => 'runDictationBench' in window)
  const hasMemory = await page.evaluate(() => 'memory' in performance && typeof (window as { gc?: unknown }).gc === 'function')
  expect(hasMemory, 'needs --enable-precise-memory-info and --js-flags=--expose-gc').toBe(true)

  const result = await page.evaluate(() =>
    (window as unknown as { runDictationBench(): Promise<{ seconds: number; ours: Figures; baseline: Figures }> }).runDictationBench(),
  )
  // Both produce the same 15 minutes at 16 kHz, 16-bit mono.
  expect(result.ours.wavBytes).toBe(44 + result.seconds * 32_000)
  expect(result.baseline.wavBytes).toBe(result.ours.wavBytes)

  const rows = [
    ['', 'stop-to-WAV', 'peak memory', '(JS heap', 'wasm', 'Blob parts)', 'WAV', 'peak / WAV'],
    ...(['ours', 'baseline'] as const).map((name) => {
      const f = result[name]
      return [
        name === 'ours' ? 'ours (worker + wasm)' : 'plain JavaScript',
        `${f.stopToWavMs.toFixed(1)} ms`,
        mb(f.peakBytes),
        mb(f.peakHeapBytes),
        mb(f.peakWasmBytes),
        mb(f.peakBlobBytes),
        mb(f.wavBytes),
        `${(f.peakBytes / f.wavBytes).toFixed(2)}x`,
      ]
    }),
  ]
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)))
  const table = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ')).join('\n')
  const goals =
    `goals: WAV within 150 ms of stop -> ${result.ours.stopToWavMs <= 150 ? 'met' : 'NOT met'} ` +
    `(${result.ours.stopToWavMs.toFixed(1)} ms); peak memory < 2x WAV -> ` +
    `${result.ours.peakBytes < 2 * result.ours.wavBytes ? 'met' : 'NOT met'} (${(result.ours.peakBytes / result.ours.wavBytes).toFixed(2)}x)`
  const parts =
    `ours while recording: WAV parts in memory at most ${mb(result.ours.partsInMemoryBytes ?? 0)}, ` +
    `kept on the device (IndexedDB, on disk) ${mb(result.ours.storedBytes ?? 0)}; the peak above counts the ` +
    `finished WAV as if it were all in memory, though its parts are the device's`
  console.log(`\n${parts}`)
  console.log(`\nDictation, ${result.seconds / 60} minutes of 48 kHz audio in 1 s chunks -> 16 kHz WAV\n${table}\n${goals}\n`)

  const out = path.resolve(import.meta.dirname, '../test-results/bench-dictation.json')
  fs.mkdirSync(path.dirname(out), { recursive: true })
  fs.writeFileSync(out, JSON.stringify(result, null, 2))
})
