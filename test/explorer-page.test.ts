/**
 * The explorer's page in headless Chromium (Debian's `chromium`, driven by playwright-core, no browser download):
 * the printed address, the token leaving the address bar, a project, a session's timeline and events, search
 * landing on the event, and transcript text with HTML and a `javascript:` link staying text.
 * Skipped where /usr/bin/chromium is missing, except under CI, whose .ci/run installs it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, type Sandbox, runCli, sandbox } from './helpers/cli.js'
import { CORPUS_PRESENT, REPO_ROOT, claudePath } from './helpers/corpus.js'
import { capturedProject } from './helpers/explorer.js'

const CHROMIUM = '/usr/bin/chromium'
const RUN = existsSync(CHROMIUM) || process.env.CI === 'true'
const SID = 'cafe0002-0000-4000-8000-000000000000'
const HTML = 'render <img src=x onerror=alert(1)> and <a href="javascript:alert(2)">click</a> javascript:alert(3) then https://example.org/docs'
/** Where the screenshots go: docs/img with BOOKMARK_SCREENSHOTS=1 (for the README), else the sandbox. */
const shots = (sb: Sandbox): string => (process.env.BOOKMARK_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'img') : sb.dir)

function transcript(): string {
  const base = { sessionId: SID, cwd: '/w/gearworks', isSidechain: false }
  const user = (uuid: string, timestamp: string, content: string) => ({ ...base, type: 'user', uuid, timestamp, message: { role: 'user', content } })
  return (
    [
      user('u1', '2026-03-01T10:00:00Z', 'tune the flywheel damping in gearworks'),
      user('u2', '2026-03-01T10:10:00Z', 'now check the sprocket tolerance'),
      user('u3', '2026-03-01T10:20:00Z', HTML),
    ]
      .map((l) => JSON.stringify(l))
      .join('\n') + '\n'
  )
}

const STORE_SID = 'cafe0006-0000-4000-8000-000000000000'
const SUMMARY = 'Ratchet module added; the pawl spring is next'

/**
 * A project whose session went through the hooks: its Stop asked for the handoff, the handoff was written as
 * asked and the next Stop found it, a new session's restore was given, and a wrap-up recorded. Returns the
 * size of that restore.
 */
async function storeWithFigures(sb: Sandbox): Promise<number> {
  const project = await capturedProject(sb, STORE_SID)
  const env = { ...sb.env, CLAUDE_PROJECT_DIR: project }
  const hook = async (cmd: string, payload: Record<string, unknown>) => {
    const r = await runCli([cmd], { env, cwd: project, input: JSON.stringify({ cwd: project, ...payload }) })
    expect(r.code, r.stderr).toBe(0)
    return r.stdout.trim() === '' ? undefined : JSON.parse(r.stdout)
  }
  const transcript = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), `${STORE_SID}.jsonl`)
  const stop = { session_id: STORE_SID, transcript_path: transcript, hook_event_name: 'Stop' }
  const block = await hook('stop', { ...stop, stop_hook_active: false })
  const header = /<!-- BOOKMARK_IDENTITY[\s\S]*?-->/.exec(block.reason)![0]
  await writeFile(
    join(project, '.bookmark', 'bookmark.context.md'),
    `${header}\n# Handoff: proj\n\n## Task\nThe ratchet module for the gearbox.\n\n## Progress\nsrc/ratchet.ts written.\n\n## Next step\nThe pawl spring: its force and a test that the ratchet holds under load.\n`,
  )
  expect(await hook('stop', { ...stop, stop_hook_active: true })).toBeUndefined()
  const restore = await hook('restore', {
    session_id: 'cafe0007-0000-4000-8000-000000000000',
    transcript_path: join(sb.dir, 'n.jsonl'),
    hook_event_name: 'SessionStart',
    source: 'startup',
  })
  const wrap = await runCli(['wrapup', '--summary', SUMMARY, '--decision', 'one pawl, not two -- the second jammed', '--session-id', STORE_SID], {
    env,
    cwd: project,
  })
  expect(wrap.code, wrap.stderr).toBe(0)
  return (restore.hookSpecificOutput.additionalContext as string).length
}

describe.skipIf(!RUN)('the explorer page in headless Chromium', () => {
  let given = 0
  let sb: Sandbox
  let child: ChildProcess
  let url: string
  let browser: import('playwright-core').Browser
  let context: import('playwright-core').BrowserContext

  beforeAll(async () => {
    sb = await sandbox()
    const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', '-w-gearworks')
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, `${SID}.jsonl`), transcript())
    if (CORPUS_PRESENT) await copyFile(claudePath('cc-2.1.12-microcompact-0cd9edf7.jsonl'), join(dir, '0cd9edf7-0000-4000-8000-000000000000.jsonl'))
    given = await storeWithFigures(sb)
    expect((await runCli(['index', '--backfill'], { env: sb.env })).code).toBe(0)
    child = spawn(process.execPath, [BIN, 'explorer', '--no-open'], { env: sb.env, cwd: sb.home, stdio: ['ignore', 'pipe', 'pipe'] })
    url = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve))
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    child?.kill('SIGINT')
  })

  it('lands on the page without the token, walks project, session, timeline, and renders transcript text as text', async () => {
    const page = await context.newPage()
    const dialogs: string[] = []
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('dialog', (d) => {
      dialogs.push(d.message())
      void d.dismiss()
    })
    const port = new URL(url).port
    await page.goto(url)
    expect(page.url()).toBe(`http://127.0.0.1:${port}/`)
    const cookies = await context.cookies()
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['bm_explorer', true, 'Strict']])
    await page.locator('#project-list button', { hasText: 'gearworks' }).waitFor()

    // Keyboard: a project opens with Enter.
    await page.locator('#project-list button', { hasText: 'gearworks' }).focus()
    await page.keyboard.press('Enter')
    const session = page.locator('#session-list button', { hasText: 'tune the flywheel damping in gearworks' })
    await session.waitFor()
    await page.locator('#continuity', { hasText: 'No bookmark store captured this project.' }).waitFor()
    expect(await page.locator('#session-list button').first().innerText()).toContain('3 requests, 0 files, 0 commits, 0 errors')
    await session.click()
    await page.locator('#event-list li').first().waitFor()
    expect(await page.locator('#timeline rect.mark.k-request').count()).toBe(3)
    expect(await page.locator('#event-list li .text').allInnerTexts()).toEqual([
      'tune the flywheel damping in gearworks',
      'now check the sprocket tolerance',
      HTML,
    ])
    // The HTML stayed text: no element came of it, only the https link is a link, and nothing ran.
    expect(await page.locator('#event-list img').count()).toBe(0)
    expect(await page.locator('#event-list a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(['https://example.org/docs'])
    expect(dialogs).toEqual([])
    expect(errors).toEqual([])
    const title = await page.locator('#timeline rect.mark').first().locator('title').textContent()
    expect(title).toBe('2026-03-01 10:00 request: tune the flywheel damping in gearworks')
    expect(await page.locator('#handoff').innerText()).toBe('No narrative handoff for this project.')
    expect(await page.locator('#files summary').innerText()).toBe('Files changed (0)')
    expect(await page.locator('#resume code').innerText()).toBe(`claude --resume ${SID}`)
    expect(page.url()).toMatch(/#p=[0-9a-f]{12}&s=[0-9a-f]{12}$/)
    await page.close()
  })

  it("shows a project's continuity figures, and its session's wrap-up in the list and on top of the session", async () => {
    const page = await context.newPage()
    await page.goto(`http://127.0.0.1:${new URL(url).port}/`)
    await page.locator('#project-list button', { hasText: 'proj' }).click()
    const n = given.toLocaleString('en-US')
    const figures = page.locator('#continuity', { hasText: 'Restores: ' })
    await figures.waitFor()
    const lines = (await figures.innerText()).split('\n')
    expect(lines[0]).toMatch(/^Continuity: 1 snapshot of 1 session, 0 compactions survived, last snapshot \d{4}-\d\d-\d\d \d\d:\d\d\.$/)
    expect(lines[1]).toMatch(/^Narrative: 1 block asked, 1 handoff written \(1 after a block\), the last \d{4}-\d\d-\d\d \d\d:\d\d\.$/)
    expect(lines[2]).toMatch(
      new RegExp(`^Restores: 1 given, ${n} characters on average, the largest ${n}, the last ${n} \\(startup, \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\)\\.$`),
    )
    const row = page.locator('#session-list button', { hasText: 'add the ratchet module' })
    expect((await row.locator('.mute').innerText()).split('\n')[0]).toBe(`Wrap-up: ${SUMMARY}`)
    if (CORPUS_PRESENT) await page.screenshot({ path: join(shots(sb), 'explorer-projects.png') })
    await row.click()
    const wrapup = page.locator('#wrapup details[open]')
    await wrapup.waitFor()
    expect(await wrapup.locator('summary').innerText()).toBe('The wrap-up')
    expect(await wrapup.locator('.text').innerText()).toBe(`Wrap-up: ${SUMMARY}. Decisions: one pawl, not two (why: the second jammed)`)
    expect(await page.locator('#wrapup details:not([open]) summary').innerText()).toBe('How it ended: the last reply')
    await page.close()
  })

  it.skipIf(!CORPUS_PRESENT)('searches a corpus phrase, lands on the event in its session, and keeps the view in the address', async () => {
    const page = await context.newPage()
    // The cookie of the first page: a new page in the same context keeps it.
    await page.goto(`http://127.0.0.1:${new URL(url).port}/`)
    await page.locator('#project-list button').first().waitFor()
    await page.fill('#q', 'GetTranscriptPosition')
    await page.selectOption('#kind', 'reply')
    await page.keyboard.press('Enter')
    const hit = page.locator('#result-list button').first()
    await hit.waitFor()
    expect(await hit.innerText()).toContain('Let me check `GetTranscriptPosition` to understand how transcript position is extracted.')
    await hit.click()
    const landed = page.locator('#event-list li.hit')
    await landed.waitFor()
    expect(await landed.locator('.text').innerText()).toBe('Let me check `GetTranscriptPosition` to understand how transcript position is extracted.')
    expect(await page.evaluate('document.activeElement.id')).toBe(await landed.getAttribute('id'))
    expect(await page.locator('#timeline rect.mark').count()).toBeGreaterThan(10)
    await page.evaluate("document.getElementById('session').scrollIntoView()")
    await page.screenshot({ path: join(shots(sb), 'explorer-session.png') })
    const address = page.url()
    expect(address).toMatch(/q=GetTranscriptPosition/)
    expect(address).toMatch(/e=[0-9a-f]{12}/)
    // Reopened from the address: the same results and the same event.
    const again = await context.newPage()
    await again.goto(address)
    await again.locator('#event-list li.hit').waitFor()
    expect(await again.locator('#q').inputValue()).toBe('GetTranscriptPosition')
    expect(await again.locator('#result-list button').count()).toBeGreaterThan(0)
    await again.setViewportSize({ width: 420, height: 900 })
    // Narrow: one column, nothing wider than the window.
    expect(await again.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(420)
    await again.evaluate('window.scrollTo(0, 0)')
    await again.screenshot({ path: join(shots(sb), 'explorer-search-narrow.png') })
    await again.close()
    await page.close()
  })
})
