// The AccountDisabled text names the support address the server is configured with
// (VOICEMARK_SUPPORT_EMAIL), which reaches the signed-out login page through system.support.
import { expect, test } from '@playwright/test'

import { startVoicemark, type Voicemark } from '../fixtures/smtp'

const CONFIGURED = 'help@northbridge.test'

let server: Voicemark

test.beforeAll(async () => {
  server = await startVoicemark({ env: { VOICEMARK_SUPPORT_EMAIL: CONFIGURED } })
})

test.afterAll(async () => {
  await server?.stop()
})

test('the AccountDisabled text uses the configured support address', async ({ page }) => {
  await page.goto(`${server.baseURL}/login?error=AccountDisabled`)
  await expect(page.getByRole('alert')).toHaveText(
    `Your account is currently disabled. Please email ${CONFIGURED} for more information.`,
  )
})
