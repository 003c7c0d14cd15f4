// Issue 28's figure: keystrokes, clicks and seconds for a scripted teacher to mark 30
// submissions with the mouse as the Hub was (click, click, type, click, click) against the
// keys and the comment bank (bench/marking.sh). Each way runs on a fresh demo server with 30
// more handed-in letters. It asserts only that all 30 were marked each way.
import { randomUUID } from 'node:crypto'

import { expect, test, type Page } from '@playwright/test'

import { startVoicemark, type Voicemark } from '../fixtures/smtp'
import { PASSWORD, USERS } from '../fixtures/users'

const COUNT = 30
const COMMENT = 'A clear, persuasive letter. Next time add one more piece of evidence for each point.'

/** 30 more pupils of the demo school hand in the demo teacher's "Persuasive letter". */
function handIn(server: Voicemark) {
  const letter = "(SELECT id FROM notifications WHERE title = 'Persuasive letter')"
  const pupils = server
    .sql(
      `SELECT st.id FROM students st WHERE st.school_id = (SELECT school_id FROM notifications WHERE id = ${letter})
       AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.student_id = st.id AND s.notification_id = ${letter})
       ORDER BY st.id LIMIT ${COUNT}`,
    )
    .split(/\s+/)
  expect(pupils).toHaveLength(COUNT)
  for (const pupil of pupils)
    server.sql(
      `INSERT INTO submissions (id, created_at, updated_at, received_at, content, token, notification_id, student_id)
       SELECT '${randomUUID()}', received_at, received_at, received_at, 'Dear Councillor, please build a library.',
              '${randomUUID()}', notification_id, '${pupil}'
       FROM submissions WHERE notification_id = ${letter} AND marked_at IS NULL ORDER BY received_at DESC LIMIT 1`,
    )
}

async function signIn(page: Page) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(USERS.teacher)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await expect(page).not.toHaveURL(/\/login/)
}

const waiting = (page: Page) => page.getByRole('list', { name: 'Submissions waiting for feedback' }).getByRole('listitem')

interface Figures {
  keys: number
  clicks: number
  switches: number
  seconds: number
}

/** The keystroke-level model's human estimate (Card, Moran and Newell): K 0.28 s, P 1.1 s, B 0.2 s, H 0.4 s. */
const human = (f: Figures) => f.keys * 0.28 + f.clicks * (1.1 + 0.2) + f.switches * 0.4

async function run(browser: import('@playwright/test').Browser, way: 'mouse' | 'keyboard'): Promise<Figures> {
  const server = await startVoicemark({})
  try {
    handIn(server)
    const context = await browser.newContext({ baseURL: server.baseURL })
    const page = await context.newPage()
    await signIn(page)
    if (way === 'keyboard') {
      const added = await page.request.post('/api/trpc/commentBank.add', {
        data: { json: { text: COMMENT, sentiment: 'POSITIVE', tags: [], school: false } },
      })
      expect(added.ok(), await added.text()).toBe(true)
    }
    await page.goto('/feedback')
    await expect(page.getByRole('heading', { level: 2, name: /^Waiting \(\d+\)$/ })).toBeVisible()
    const total = await waiting(page).count()
    expect(total).toBeGreaterThanOrEqual(COUNT)
    const figures: Figures = { keys: 0, clicks: 0, switches: 0, seconds: 0 }
    const press = async (key: string) => {
      figures.keys += key === 'Control+Enter' ? 2 : 1
      await page.keyboard.press(key)
    }
    const click = async (target: import('@playwright/test').Locator) => {
      figures.clicks += 1
      await target.click()
    }
    const feedback = page.getByLabel('Feedback', { exact: true })
    const started = performance.now()
    if (way === 'mouse') {
      for (let n = 0; n < COUNT; n += 1) {
        await click(waiting(page).first().getByRole('button'))
        await click(feedback)
        figures.switches += 1
        figures.keys += COMMENT.length
        await page.keyboard.type(COMMENT)
        figures.switches += 1
        await click(page.getByRole('radio', { name: 'Positive' }))
        await click(page.getByRole('button', { name: 'Mark', exact: true }))
        await expect(waiting(page)).toHaveCount(total - n - 1)
      }
    } else {
      // One reach for the keyboard; the list has the focus from K.
      figures.switches += 1
      await press('k')
      for (let n = 0; n < COUNT; n += 1) {
        if (n > 0) await press('Escape')
        await press('2')
        await press('Enter')
        for (const letter of 'cle') await press(letter)
        await expect(page.getByRole('option', { name: /A clear, persuasive letter/ })).toBeVisible()
        await press('Enter')
        await expect(feedback).toHaveValue(COMMENT)
        await press('Control+Enter')
        await expect(waiting(page)).toHaveCount(total - n - 1)
      }
    }
    figures.seconds = (performance.now() - started) / 1000
    await context.close()
    return figures
  } finally {
    await server.stop()
  }
}

test(`marking ${COUNT} submissions: the mouse as before against the keys and the comment bank`, async ({ browser }) => {
  const mouse = await run(browser, 'mouse')
  const keyboard = await run(browser, 'keyboard')
  const row = (name: string, f: Figures) =>
    `| ${name} | ${f.keys} | ${f.clicks} | ${f.seconds.toFixed(1)} s | ${human(f).toFixed(0)} s |`
  console.log(
    [
      `Marking ${COUNT} submissions (${COMMENT.length}-character comment, Positive each)`,
      '| way | keystrokes | clicks | browser time | human estimate (KLM) |',
      '|---|---|---|---|---|',
      row('mouse, typing (before)', mouse),
      row('keys and the comment bank', keyboard),
    ].join('\n'),
  )
  expect(keyboard.keys + keyboard.clicks).toBeLessThan(mouse.keys + mouse.clicks)
})
