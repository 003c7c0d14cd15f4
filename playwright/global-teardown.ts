// Removes the run's data folder (made in playwright.config.ts) once the tests are done.
import fs from 'node:fs'

export default function globalTeardown() {
  const dir = process.env.VOICEMARK_E2E_DATA_DIR
  if (dir && !process.env.E2E_KEEP_DATA) fs.rmSync(dir, { recursive: true, force: true })
}
