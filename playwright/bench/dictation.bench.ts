// Dictation benchmark: 15 minutes of 48 kHz audio through the product's dictation worker
// (wasm DictationRecorder, parts kept in IndexedDB as the app records) and a plain-JavaScript
// baseline, each in a page of its own (app/bench/dictation.ts). Prints stop-to-WAV time and
// peak memory for both, next to the WAV's size and the goals (WAV within 150 ms of stop; peak
// page and worker memory at most 1.1 times the WAV, issue 27 item 5).
// Two measures of memory:
//  - in the page: JS heap above the start (performance.memory), the worker's wasm memory and
//    the bytes of Blob parts held in memory (parts the device has written are its copies);
//  - of the processes: Chromium's own memory from /proc (anonymous bytes, smaps_rollup),
//    sampled every 50 ms while the page runs: the renderer (page and worker: both heaps,
//    wasm) and the browser process with its helpers (where Blob data and IndexedDB live),
//    each as its peak above the moment before the run.
// Run with `bash bench/browser.sh dictation` (playwright/bench.config.ts serves dist-bench
// with precise memory info and --expose-gc); DICTATION_PACE (default 10: ten times real
// time; 0 as fast as it goes) and DICTATION_SECONDS change the run. Figures are printed, not
// asserted.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { chromium, expect, test } from '@playwright/test'

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

interface Result {
  seconds: number
  ours: Figures
  baseline: Figures
}

/** Peak growth of Chromium's processes during one run, in bytes. */
interface ProcessPeaks {
  renderer: number
  others: number
  total: number
  /** Per kind of process (browser, renderer, gpu-process, utility:…). */
  byKind: Record<string, number>
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`

/**
 * Anonymous memory of process `pid` (heaps, wasm, Blob data held in memory; not files mapped
 * from disk, such as IndexedDB's, which the kernel can drop), 0 once it is gone.
 */
function privateBytes(pid: number): number {
  try {
    const text = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8')
    const kb = Number(/^Anonymous:\s+(\d+) kB/m.exec(text)?.[1] ?? 0)
    return kb * 1024
  } catch {
    return 0
  }
}

function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    return ''
  }
}

/** The Chromium started for one run: its processes are found by its profile folder. */
let profileDir = ''

/** Chromium's processes started by this run: the browser (found by its profile folder) and its descendants. */
function chromiumProcesses(): { pid: number; renderer: boolean }[] {
  const parents = new Map<number, number>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(Number(entry), ppid)
    } catch {
      /* gone meanwhile */
    }
  }
  const roots = [...parents.keys()].filter((pid) => {
    const line = commandLine(pid)
    return line.includes('chromium') && profileDir !== '' && line.includes(profileDir) && !line.includes('--type=')
  })
  const ours = new Set(roots)
  for (let grew = true; grew; ) {
    grew = false
    for (const [pid, ppid] of parents) {
      if (!ours.has(pid) && ours.has(ppid)) {
        ours.add(pid)
        grew = true
      }
    }
  }
  return [...ours].map((pid) => ({ pid, renderer: commandLine(pid).includes('--type=renderer') }))
}

/** Each process's kind: the browser, or its `--type` (and a utility's sub-type). */
function kindOf(pid: number): string {
  const line = commandLine(pid)
  const type = /--type=(\S+)/.exec(line)?.[1] ?? 'browser'
  const sub = /--utility-sub-type=(\S+)/.exec(line)?.[1]
  return sub ? `${type}:${sub}` : type
}

function processMemory(): { renderer: number; others: number; byKind: Record<string, number> } {
  let renderer = 0
  let others = 0
  const byKind: Record<string, number> = {}
  for (const p of chromiumProcesses()) {
    const bytes = privateBytes(p.pid)
    if (p.renderer) renderer += bytes
    else others += bytes
    const kind = kindOf(p.pid)
    byKind[kind] = (byKind[kind] ?? 0) + bytes
  }
  return { renderer, others, byKind }
}

/**
 * Runs `only` in a browser of its own, sampling the processes' memory meanwhile. The browser
 * has a profile on disk, as a user's has: a context without one (Playwright's default) keeps
 * IndexedDB and the origin private file system in the browser process's memory.
 */
async function run(
  launch: { args: string[]; baseURL: string },
  only: 'ours' | 'baseline',
  seconds: number,
  pace: number,
): Promise<{ figures: Figures; peaks: ProcessPeaks }> {
  profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vm-dictation-bench-'))
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
    args: launch.args,
    baseURL: launch.baseURL,
  })
  const page = context.pages()[0] ?? (await context.newPage())
  await page.goto('/bench/dictation.html')
  await page.waitForFunction(() => 'runDictationBench' in window)
  const hasMemory = await page.evaluate(() => 'memory' in performance && typeof (window as { gc?: unknown }).gc === 'function')
  expect(hasMemory, 'needs --enable-precise-memory-info and --js-flags=--expose-gc').toBe(true)
  await page.evaluate(() => (window as unknown as { gc(): void }).gc())
  await new Promise((resolve) => setTimeout(resolve, 500))

  const start = processMemory()
  const peaks: ProcessPeaks = { renderer: 0, others: 0, total: 0, byKind: {} }
  const sample = () => {
    const now = processMemory()
    for (const [kind, bytes] of Object.entries(now.byKind))
      peaks.byKind[kind] = Math.max(peaks.byKind[kind] ?? 0, bytes - (start.byKind[kind] ?? 0))
    const renderer = now.renderer - start.renderer
    const others = now.others - start.others
    peaks.renderer = Math.max(peaks.renderer, renderer)
    peaks.others = Math.max(peaks.others, others)
    peaks.total = Math.max(peaks.total, renderer + others)
  }
  const timer = setInterval(sample, 50)
  try {
    const result = await page.evaluate(
      ({ seconds, only, pace, keep }) =>
        (window as unknown as { runDictationBench(o: object): Promise<Result> }).runDictationBench({ seconds, only, pace, keep }),
      { seconds, only, pace: pace > 0 ? pace : undefined, keep: process.env.DICTATION_KEEP !== '0' },
    )
    sample()
    return { figures: result[only], peaks }
  } finally {
    clearInterval(timer)
    await context.close()
    fs.rmSync(profileDir, { recursive: true, force: true })
    profileDir = ''
  }
}

test('dictation: stop-to-WAV and peak memory for 15 minutes, ours against plain JavaScript', async ({ baseURL, launchOptions }) => {
  test.setTimeout(900_000)
  const launch = { args: launchOptions.args ?? [], baseURL: baseURL ?? '' }
  const seconds = Number(process.env.DICTATION_SECONDS ?? 15 * 60)
  // Audio seconds fed per second of wall time (0: as fast as the worker takes them). A
  // microphone gives one a second; at 10 the 15 minutes take 90 s and the device's writes
  // still have ten times less time per part than in a classroom.
  const pace = Number(process.env.DICTATION_PACE ?? 10)
  const ours = await run(launch, 'ours', seconds, pace)
  const baseline = await run(launch, 'baseline', seconds, 0)
  // Both produce the same audio at 16 kHz, 16-bit mono.
  expect(ours.figures.wavBytes).toBe(44 + seconds * 32_000)
  expect(baseline.figures.wavBytes).toBe(ours.figures.wavBytes)
  const wav = ours.figures.wavBytes

  const rows = [
    ['', 'stop-to-WAV', 'peak in the page', '(JS heap', 'wasm', 'Blob parts in memory)', 'renderer process', 'other processes', 'WAV', 'page / WAV', 'renderer / WAV'],
    ...([['ours (worker + wasm)', ours], ['plain JavaScript', baseline]] as const).map(([name, { figures: f, peaks }]) => [
      name,
      `${f.stopToWavMs.toFixed(1)} ms`,
      mb(f.peakBytes),
      mb(f.peakHeapBytes),
      mb(f.peakWasmBytes),
      mb(f.peakBlobBytes),
      mb(peaks.renderer),
      mb(peaks.others),
      mb(f.wavBytes),
      `${(f.peakBytes / f.wavBytes).toFixed(2)}x`,
      `${(peaks.renderer / f.wavBytes).toFixed(2)}x`,
    ]),
  ]
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)))
  const table = rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ')).join('\n')
  const goals =
    `goals: WAV within 150 ms of stop -> ${ours.figures.stopToWavMs <= 150 ? 'met' : 'NOT met'} ` +
    `(${ours.figures.stopToWavMs.toFixed(1)} ms); peak page and worker memory <= 1.1x WAV (the issue's measure: ` +
    `heaps, wasm and audio held in memory) -> ${ours.figures.peakBytes <= 1.1 * wav ? 'met' : 'NOT met'} ` +
    `(${(ours.figures.peakBytes / wav).toFixed(2)}x); the renderer process grew ${mb(ours.peaks.renderer)} ` +
    `(${(ours.peaks.renderer / wav).toFixed(2)}x) and the others ${mb(ours.peaks.others)}`
  const parts =
    `ours while recording: WAV parts in memory at most ${mb(ours.figures.partsInMemoryBytes ?? 0)}, ` +
    `kept on the device (IndexedDB, on disk) ${mb(ours.figures.storedBytes ?? 0)}; ` +
    `the whole WAV counted as memory would be ${((ours.figures.peakHeapBytes + ours.figures.peakWasmBytes + wav) / wav).toFixed(2)}x`
  console.log(`\n${parts}`)
  const kinds = Object.entries(ours.peaks.byKind).filter(([, bytes]) => bytes > 1_048_576)
  console.log(`ours, growth per process: ${kinds.map(([kind, bytes]) => `${kind} ${mb(bytes)}`).join(', ')}`)
  const paced = pace > 0 ? `ours fed at ${pace}x real time` : 'ours fed as fast as the worker takes it'
  console.log(`\nDictation, ${seconds / 60} minutes of 48 kHz audio in 1 s chunks -> 16 kHz WAV (${paced})\n${table}\n${goals}\n`)

  const out = path.resolve(import.meta.dirname, '../test-results/bench-dictation.json')
  fs.mkdirSync(path.dirname(out), { recursive: true })
  fs.writeFileSync(out, JSON.stringify({ seconds, ours, baseline }, null, 2))
})
