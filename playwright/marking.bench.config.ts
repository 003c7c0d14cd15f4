// The marking timing run (issue 28's figure, not a test): bench/marking.sh. Each way of marking
// runs on a server of its own (fixtures/smtp.ts startVoicemark), so the two start from the same
// demo data. Prints keystrokes, clicks and seconds; scripts/test.sh never runs it.
import { defineConfig } from '@playwright/test'

export default defineConfig({
  testDir: './bench',
  testMatch: 'marking.timing.ts',
  outputDir: './test-results/marking-artifacts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 15 * 60_000,
  reporter: [['list']],
  use: {
    trace: 'off',
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    },
  },
})
