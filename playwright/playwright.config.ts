// End-to-end tests in headless Debian Chromium against the real server (`voicemark serve`),
// which serves the built app: run scripts/build-web.sh and `cargo build --release` first,
// then ./run.sh (scripts/test.sh runs the debug binary its `cargo test` built instead).
//
// The server starts on an empty data folder with the demo data and two extra accounts (see
// `setup` below and fixtures/users.ts).
//
// Environment:
//   VOICEMARK_BIN  the server binary (default ../target/release/voicemark)
//   E2E_PORT       the port it listens on (default 3107); the stubs' ports count from it
//                  (fixtures/ports.ts)
//
// Two stub providers run beside it and speak the real protocols: an OpenAI-compatible
// vision server (stubs/vision-server.mjs, E2E_PORT + 1) and a Deepgram-compatible speech
// server (stubs/speech-server.mjs, E2E_PORT + 2: /v1/auth/grant and the /v1/listen
// WebSocket). Chromium gets a fake camera and microphone playing fixtures/media/*, which
// global-setup.ts writes before the browsers start.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defineConfig } from '@playwright/test'

import { E2E_PORT, SPEECH_PORT, VISION_PORT } from './fixtures/ports'
import { EXTRA_ACCOUNTS, PASSWORD } from './fixtures/users'

const port = E2E_PORT
const baseURL = `http://127.0.0.1:${port}`
const serverBin = process.env.VOICEMARK_BIN ?? '../target/release/voicemark'
const mediaDir = path.resolve(import.meta.dirname, 'fixtures/media')

// A fresh, empty data folder for each run. Playwright loads this file again in every
// worker process; those inherit the variable, so the folder is made once per run.
process.env.VOICEMARK_E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'voicemark-e2e-'))
const dataDir = process.env.VOICEMARK_E2E_DATA_DIR

// Before serving: the demo data (`seed --demo`), then a disabled and a not-activated
// account for the sign-in error tests.
const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`
const setup = [
  `${serverBin} seed --demo`,
  ...EXTRA_ACCOUNTS.map(
    ({ email, flag }) =>
      `${serverBin} user add --email ${quote(email)} --password ${quote(PASSWORD)} --role TEACHER --school 'Northbridge Academy' ${flag}`,
  ),
  `exec ${serverBin} serve --bind 127.0.0.1:${port}`,
].join(' && ')

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results/artifacts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: './test-results/results.json' }]],
  globalSetup: './global-setup.ts',
  globalTeardown: './global-teardown.ts',
  use: {
    baseURL,
    // The service worker (its precache is a few megabytes per new browser context) runs only
    // in the specs about it: tests/offline.spec.ts allows it (docs/offline.md).
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
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
      ],
    },
  },
  projects: [
    { name: 'chromium' },
    // The flows that start a server of their own run again on PostgreSQL when the test
    // command provides one (scripts/test.sh always does).
    ...(process.env.TEST_DATABASE_URL
      ? [{ name: 'postgres', testMatch: /(teacher-loop|preferences|leader-journey|microsoft-import|mis-sync|mis-sync-groupcall|translation|assistant)\.spec\.ts$/ }]
      : []),
  ],
  webServer: [
    {
      command: `node stubs/vision-server.mjs --port ${VISION_PORT}`,
      url: `http://127.0.0.1:${VISION_PORT}/health`,
      reuseExistingServer: false,
      timeout: 20_000,
    },
    {
      command: `node stubs/speech-server.mjs --port ${SPEECH_PORT}`,
      url: `http://127.0.0.1:${SPEECH_PORT}/health`,
      reuseExistingServer: false,
      timeout: 20_000,
    },
    {
      command: `sh -c ${quote(setup)}`,
      env: {
        VOICEMARK_DATA_DIR: dataDir,
        VOICEMARK_VISION_BASE_URL: `http://127.0.0.1:${VISION_PORT}/v1`,
        VOICEMARK_VISION_MODEL: 'stub-vision',
        VOICEMARK_VISION_API_KEY: 'stub-vision-key',
        VOICEMARK_DEEPGRAM_URL: `http://127.0.0.1:${SPEECH_PORT}`,
        VOICEMARK_DEEPGRAM_API_KEY: 'stub-deepgram-key',
        VOICEMARK_DRAIN_SECONDS: '0',
      },
      url: `${baseURL}/api/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
})
