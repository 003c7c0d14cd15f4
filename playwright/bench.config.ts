// Browser benchmarks (not tests): headless Chromium against the benchmark pages that
// app/vite.bench.config.ts builds into app/dist-bench, served by `vite preview`. Run them
// with bench/browser.sh (photo | dictation | all), which builds the pages first. They print
// figures and assert only that each method produced a usable result; `./run.sh` and
// scripts/test.sh never run them.
import path from 'node:path'
import { defineConfig } from '@playwright/test'

const BENCH_PORT = 4180
const mediaDir = path.resolve(import.meta.dirname, 'fixtures/media')

export default defineConfig({
  testDir: './bench',
  testMatch: '*.bench.ts',
  outputDir: './test-results/bench-artifacts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 15 * 60_000,
  reporter: [['list']],
  globalSetup: './global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${BENCH_PORT}`,
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      // The end-to-end run's arguments (playwright.config.ts), plus precise heap figures and gc().
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${mediaDir}/fake-camera.y4m`,
        `--use-file-for-fake-audio-capture=${mediaDir}/fake-microphone.wav`,
        '--autoplay-policy=no-user-gesture-required',
        '--enable-precise-memory-info',
        '--js-flags=--expose-gc',
      ],
    },
  },
  webServer: {
    command: 'npx vite preview --config vite.bench.config.ts',
    cwd: '../app',
    url: `http://127.0.0.1:${BENCH_PORT}/bench/photo.html`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
})
