/**
 * `bookmark explorer` without a browser: the built CLI in a sandbox, asked over loopback HTTP. Every guard with its
 * status, then composition: an event found by search, and its session's events in time order.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { request } from 'node:http'
import { existsSync, readFileSync } from 'node:fs'
import { appendFile, copyFile, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, type Sandbox, runCli, sandbox } from './helpers/cli.js'
import { capturedProject } from './helpers/explorer.js'
import { ghp } from './helpers/fake-secrets.js'
import { sealedHeader } from './helpers/narrative.js'
import { CORPUS_PRESENT, claudePath } from './helpers/corpus.js'
import { APP_JS } from '../src/explorer/page.js'
import { startExplorer } from '../src/explorer/server.js'
import { defaultDeps } from '../src/shared/deps.js'

interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { Host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (d: string) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

const SID = 'cafe0001-0000-4000-8000-000000000000'
const CWD = '/w/gearworks'
const HTML = 'render <img src=x onerror=alert(1)> and [click](javascript:alert(2)) then https://example.org/docs'

/** A transcript whose lines are not in time order: the timeline must sort them. */
function transcript(): string {
  const base = { sessionId: SID, cwd: CWD, isSidechain: false }
  const lines = [
    { ...base, type: 'user', uuid: 'u1', timestamp: '2026-03-01T10:00:00Z', message: { role: 'user', content: 'tune the flywheel damping in gearworks' } },
    { ...base, type: 'user', uuid: 'u3', timestamp: '2026-03-01T10:20:00Z', message: { role: 'user', content: HTML } },
    { ...base, type: 'user', uuid: 'u2', timestamp: '2026-03-01T10:10:00Z', message: { role: 'user', content: 'now check the sprocket tolerance' } },
  ]
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n'
}

interface Running {
  child: ChildProcess
  url: string
  port: number
}

async function explorer(sb: Sandbox): Promise<Running> {
  const child = spawn(process.execPath, [BIN, 'explorer', '--no-open'], { env: sb.env, cwd: sb.home, stdio: ['ignore', 'pipe', 'pipe'] })
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`explorer exited ${code}`)))
  })
  const port = Number(new URL(first).port)
  return { child, url: first, port }
}

describe('bookmark explorer: guards and API', () => {
  let sb: Sandbox
  let ex: Running
  let cookie: string

  beforeAll(async () => {
    sb = await sandbox()
    const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', '-w-gearworks')
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, `${SID}.jsonl`), transcript())
    if (CORPUS_PRESENT) await copyFile(claudePath('cc-2.1.12-microcompact-0cd9edf7.jsonl'), join(dir, '0cd9edf7-0000-4000-8000-000000000000.jsonl'))
    expect((await runCli(['index', '--backfill'], { env: sb.env })).code).toBe(0)
    ex = await explorer(sb)
  }, 60_000)
  afterAll(() => {
    if (ex && ex.child.exitCode === null) ex.child.kill('SIGKILL')
  })

  it('prints the address first, with a 128-bit token, and trades it once for a strict cookie', async () => {
    expect(ex.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32}$/)
    const u = new URL(ex.url)
    const r = await get(ex.port, `${u.pathname}${u.search}`)
    expect(r.status).toBe(303)
    expect(r.headers.location).toBe('/')
    const set = String(r.headers['set-cookie'])
    expect(set).toMatch(/^bm_explorer=[0-9a-f]{64}; HttpOnly; SameSite=Strict; Path=\/$/)
    cookie = set.split(';')[0]!
    expect((await get(ex.port, '/', { Cookie: cookie })).status).toBe(200)
    // The token works once.
    expect((await get(ex.port, `${u.pathname}${u.search}`)).status).toBe(403)
  })

  it('serves a script that parses (a broken escape in page.ts would blank the page)', async () => {
    expect(() => new Function(APP_JS)).not.toThrow()
    const js = await get(ex.port, '/app.js', { Cookie: cookie })
    expect([js.status, js.headers['content-type'], js.body]).toEqual([200, 'text/javascript; charset=utf-8', APP_JS])
  })

  it('refuses every request without the cookie, the page included', async () => {
    for (const path of ['/', '/app.js', '/api/projects', '/api/search?q=flywheel']) expect((await get(ex.port, path)).status).toBe(401)
    expect((await get(ex.port, '/', { Cookie: 'bm_explorer=00' })).status).toBe(403)
    expect((await get(ex.port, '/?token=00000000000000000000000000000000')).status).toBe(403)
  })

  it('refuses a forged Host, a foreign Origin, a cross-site fetch and any method but GET/HEAD, cookie or not', async () => {
    const c = { Cookie: cookie }
    expect((await get(ex.port, '/', { ...c, Host: `evil.example:${ex.port}` })).status).toBe(403)
    expect((await get(ex.port, '/', { ...c, Host: '127.0.0.1:1' })).status).toBe(403)
    expect((await get(ex.port, '/', { ...c, Host: `localhost:${ex.port}` })).status).toBe(200)
    expect((await get(ex.port, '/api/projects', { ...c, Origin: 'http://evil.example' })).status).toBe(403)
    expect((await get(ex.port, '/api/projects', { ...c, Origin: `http://127.0.0.1:${ex.port}` })).status).toBe(200)
    expect((await get(ex.port, '/api/projects', { ...c, 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403)
    // Another port of 127.0.0.1 is the same site: its requests carry the cookie, and are refused all the same.
    expect((await get(ex.port, '/api/projects', { ...c, 'Sec-Fetch-Site': 'same-site' })).status).toBe(403)
    expect((await get(ex.port, '/', { ...c, 'Sec-Fetch-Site': 'none' })).status).toBe(200)
    expect((await get(ex.port, '/api/projects', { ...c, 'Sec-Fetch-Site': 'same-origin' })).status).toBe(200)
    for (const m of ['POST', 'PUT', 'DELETE', 'PATCH']) expect((await get(ex.port, '/api/projects', c, m)).status).toBe(405)
    const head = await get(ex.port, '/', c, 'HEAD')
    expect([head.status, head.body]).toEqual([200, ''])
  })

  it('sends a strict CSP and answers ids, never paths: 400 for a path in an id, 404 for unknown ids and routes', async () => {
    const c = { Cookie: cookie }
    const page = await get(ex.port, '/', c)
    expect(page.headers['content-security-policy']).toContain("default-src 'none'; script-src 'self'")
    expect(page.body).not.toMatch(/<script(?![^>]*\ssrc=)|\son[a-z]+=|<style/) // no inline code: the CSP would block it
    for (const path of ['/api/sessions/..%2F..%2Fetc/events', '/api/sessions/../events', '/api/projects/%2Fetc%2Fpasswd/sessions', '/api/sessions/abc']) {
      expect((await get(ex.port, path, c)).status, path).toBe(400)
    }
    expect((await get(ex.port, '/api/sessions/000000000000', c)).status).toBe(404)
    expect((await get(ex.port, '/api/projects/000000000000/sessions', c)).status).toBe(404)
    const unknown = await get(ex.port, '/api/nothing', c)
    expect([unknown.status, unknown.headers['content-type']]).toEqual([404, 'application/json; charset=utf-8'])
    expect((await get(ex.port, '/etc/passwd', c)).status).toBe(404)
    expect((await get(ex.port, '/api/search?q=x&kind=nonsense', c)).status).toBe(400)
  })

  it('finds a fixture event by search and shows its session in time order, text as recorded, no transcript path', async () => {
    const c = { Cookie: cookie }
    const hits = JSON.parse((await get(ex.port, '/api/search?q=sprocket+tolerance', c)).body) as any[]
    expect(hits[0]).toMatchObject({ kind: 'request', snippet: 'now check the sprocket tolerance', project: CWD })
    expect(hits[0].transcript).toBeUndefined()
    const projects = JSON.parse((await get(ex.port, '/api/projects', c)).body) as any[]
    const gear = projects.find((p) => p.name === 'gearworks')
    expect(gear).toMatchObject({ sessions: 1, hosts: ['claude'], last: Date.parse('2026-03-01T10:20:00Z') })
    const sessions = JSON.parse((await get(ex.port, `/api/projects/${gear.id}/sessions`, c)).body) as any[]
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({
      id: hits[0].sessionId,
      session: SID,
      title: 'tune the flywheel damping in gearworks',
      counts: { requests: 3 },
      wrapUp: null,
      lastReply: null,
    })
    const events = JSON.parse((await get(ex.port, `/api/sessions/${hits[0].sessionId}/events`, c)).body) as any[]
    expect(events.map((e) => e.text)).toEqual(['tune the flywheel damping in gearworks', 'now check the sprocket tolerance', HTML])
    expect(events.some((e) => e.id === hits[0].id)).toBe(true)
    expect(JSON.stringify(events)).not.toContain(sb.env.CLAUDE_CONFIG_DIR!)
    // Filters as `bookmark search` takes them.
    expect(JSON.parse((await get(ex.port, '/api/search?q=sprocket&kind=reply', c)).body)).toEqual([])
    expect(JSON.parse((await get(ex.port, '/api/search?q=sprocket&since=2026-03-02', c)).body)).toEqual([])
    expect(JSON.parse((await get(ex.port, `/api/search?q=sprocket&project=${gear.id}`, c)).body)).toHaveLength(1)
  })

  it.skipIf(!CORPUS_PRESENT)('finds a corpus event and lays out its session: the timeline is in time order', async () => {
    const c = { Cookie: cookie }
    const hits = JSON.parse((await get(ex.port, '/api/search?q=GetTranscriptPosition&kind=reply', c)).body) as any[]
    expect(hits[0].snippet).toBe('Let me check `GetTranscriptPosition` to understand how transcript position is extracted.')
    const events = JSON.parse((await get(ex.port, `/api/sessions/${hits[0].sessionId}/events`, c)).body) as any[]
    expect(events.length).toBeGreaterThan(100)
    const times = events.map((e) => Date.parse(e.ts))
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(events.find((e) => e.id === hits[0].id)).toBeDefined()
    const session = JSON.parse((await get(ex.port, `/api/sessions/${hits[0].sessionId}`, c)).body)
    expect(session).toMatchObject({ project: 'cli', host: 'claude', counts: { requests: 4, errors: 3 } })
    // No wrap-up was recorded: its last reply says how it ended, in the session view whole and in the project's list on one line.
    const replies = events.filter((e) => e.kind === 'reply' && !e.sub)
    expect(session.wrapUp).toBeNull()
    expect(session.lastReply).toBe(replies[replies.length - 1].text)
    expect(session.lastReply.length).toBeGreaterThan(20)
    const listed = JSON.parse((await get(ex.port, `/api/projects/${session.projectId}/sessions`, c)).body) as any[]
    expect(listed[0].wrapUp).toBeNull()
    expect(listed[0].lastReply).toBe(
      session.lastReply
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 240)
        .replace(/^(.{239}).+$/, '$1…'),
    )
  })

  it('exits on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => ex.child.once('exit', (code) => resolve(code)))
    ex.child.kill('SIGINT')
    expect(await exited).toBe(0)
    await expect(get(ex.port, '/')).rejects.toThrow()
  })

  it('stops after its idle time and says so on `closed`', async () => {
    const started = Date.now()
    const e = await startExplorer({ deps: defaultDeps(sb.env, () => undefined), idleMs: 300 })
    await e.closed
    expect(Date.now() - started).toBeGreaterThanOrEqual(250)
    await expect(get(e.port, '/')).rejects.toThrow()
  })
})

describe('bookmark explorer: the browser', () => {
  it('opens the printed address with the platform opener, and serves without one', async () => {
    const sb = await sandbox()
    const bin = join(sb.dir, 'bin')
    const opened = join(sb.dir, 'opened.txt')
    await writeFile(join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > '${opened}'\n`, { mode: 0o755 })
    const child = spawn(process.execPath, [BIN, 'explorer'], { env: sb.env, cwd: sb.home, stdio: ['ignore', 'pipe', 'pipe'] })
    const url = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve))
    for (let i = 0; i < 50 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 100))
    expect(readFileSync(opened, 'utf8').trim()).toBe(url)
    child.kill('SIGINT')
    // No opener on PATH at all: the address is printed and served all the same.
    const bare = spawn(process.execPath, [BIN, 'explorer'], { env: { ...sb.env, PATH: '/nonexistent' }, cwd: sb.home, stdio: ['ignore', 'pipe', 'pipe'] })
    const second = await new Promise<string>((resolve) => createInterface({ input: bare.stdout! }).once('line', resolve))
    const u = new URL(second)
    expect((await get(Number(u.port), `${u.pathname}${u.search}`)).status).toBe(303)
    bare.kill('SIGINT')
  })
})

/** The explorer's cookie for `ex`, from its printed address. */
async function cookieOf(ex: Running): Promise<Record<string, string>> {
  const u = new URL(ex.url)
  return { Cookie: String((await get(ex.port, `${u.pathname}${u.search}`)).headers['set-cookie']).split(';')[0]! }
}

describe('bookmark explorer: a project with a store', () => {
  it('shows continuity figures, the sealed handoff (redacted) with its freshness, and the files a session changed', async () => {
    const sb = await sandbox()
    const sid = 'cafe0003-0000-4000-8000-000000000000'
    const project = await capturedProject(sb, sid)
    // What the hooks would have counted: two narrative blocks, one compaction.
    const home = sb.env.BOOKMARK_HOME!
    const { stateLayout, sessionHooksPath } = await import('../src/store/layout.js')
    const { projectId } = await import('../src/trust/key.js')
    const { ensureKey } = await import('../src/trust/make-key.js')
    const state = stateLayout(home, projectId(await ensureKey(home), project))
    const hooksFile = sessionHooksPath(state, sid)
    await mkdir(dirname(hooksFile), { recursive: true })
    await writeFile(hooksFile, JSON.stringify({ version: 1, sessionId: sid, blocks: 2, compactions: 1 }))
    const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: project, encoding: 'utf8' }).trim()
    const header = await sealedHeader(home, project, {
      scope: 'repo',
      project: 'proj',
      repo_path: project,
      branch: 'main',
      head,
      session_id: sid,
      written: '2026-03-02T10:00:00Z',
    })
    await writeFile(
      join(project, '.bookmark', 'bookmark.context.md'),
      `${header}\n# Handoff: proj\n\n## Task\nFinish the ratchet module.\n\n## Open items\nGITHUB_TOKEN=${ghp}\n`,
    )
    // A new session starts here: its restore notes its size.
    const restore = await runCli(['restore'], {
      env: sb.env,
      cwd: project,
      input: JSON.stringify({
        session_id: 'cafe0004-0000-4000-8000-000000000000',
        transcript_path: join(sb.dir, 'n.jsonl'),
        cwd: project,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
    })
    expect(restore.code, restore.stderr).toBe(0)
    const given: string = JSON.parse(restore.stdout).hookSpecificOutput.additionalContext
    expect(given.length).toBeGreaterThan(100)
    // The handoff as two hooks noted it (one handoff, after a block), beside a line that is not a figure.
    const written = Date.parse('2026-03-02T10:00:00Z')
    const noted = (a: number) => JSON.stringify({ k: 'h', w: written, a, t: written + 1_000 })
    await appendFile(state.stats, `${noted(1)}\n<img src=x onerror=alert(1)>\n${noted(0)}\n`)
    // A project's own .bookmark/ can come with a clone: figures there are not read.
    await writeFile(join(project, '.bookmark', 'stats.jsonl'), `${JSON.stringify({ k: 'f', r: 999, c: 999_000, m: 9_999, h: 99, a: 99, w: 1, t: 1 })}\n`)
    expect((await runCli(['index', '--backfill'], { env: sb.env })).code).toBe(0)

    const ex = await explorer(sb)
    try {
      const c = await cookieOf(ex)
      const projects = JSON.parse((await get(ex.port, '/api/projects', c)).body) as any[]
      expect(projects.map((p) => p.name)).toEqual(['proj'])
      const pid = projects[0].id as string
      const continuity = JSON.parse((await get(ex.port, `/api/projects/${pid}/continuity`, c)).body)
      expect(continuity).toMatchObject({
        stores: 1,
        snapshots: 1,
        sessions: 1,
        compactions: 1,
        narrativeBlocks: 2,
        handoffsWritten: 1,
        handoffsAnswered: 1,
        lastHandoffAt: '2026-03-02T10:00:00.000Z',
        restores: { count: 1, average: given.length, largest: given.length, last: { chars: given.length, source: 'startup' } },
        problems: [],
      })
      expect(Date.parse(continuity.restores.last.at)).toBeGreaterThan(Date.now() - 120_000)
      const sessions = JSON.parse((await get(ex.port, `/api/projects/${pid}/sessions`, c)).body) as any[]
      expect(sessions.map((s) => [s.title, s.counts.files, s.handoffFresh])).toEqual([['add the ratchet module', 1, true]])
      const session = JSON.parse((await get(ex.port, `/api/sessions/${sessions[0].id}`, c)).body)
      expect(session.store).toEqual({ compactions: 1, narrativeBlocks: 2, lastBlockAt: null })
      expect(session.handoff).toMatchObject({ status: 'sealed', written: '2026-03-02T10:00:00Z', fresh: true })
      expect(session.handoff.text).toContain('Finish the ratchet module.')
      expect(session.handoff.text).not.toContain(ghp)
      expect(session.handoff.text).toContain('GITHUB_TOKEN=[REDACTED')
      const events = JSON.parse((await get(ex.port, `/api/sessions/${sessions[0].id}/events`, c)).body) as any[]
      expect(events.filter((e) => e.kind === 'file').map((e) => e.paths)).toEqual([[join(project, 'src', 'ratchet.ts')]])
    } finally {
      ex.child.kill('SIGINT')
    }
  })

  it("shows a session's wrap-up summary in the project's list, and the whole wrap-up and the last reply in the session", async () => {
    const sb = await sandbox()
    const sid = 'cafe0005-0000-4000-8000-000000000000'
    const project = await capturedProject(sb, sid)
    const wrap = await runCli(
      ['wrapup', '--summary', 'Ratchet module added; the pawl spring is next', '--decision', 'one pawl, not two -- the second jammed', '--session-id', sid],
      { env: sb.env, cwd: project },
    )
    expect(wrap.code, wrap.stderr).toBe(0)
    expect((await runCli(['index', '--backfill'], { env: sb.env })).code).toBe(0)
    const ex = await explorer(sb)
    try {
      const c = await cookieOf(ex)
      const projects = JSON.parse((await get(ex.port, '/api/projects', c)).body) as any[]
      const sessions = JSON.parse((await get(ex.port, `/api/projects/${projects[0].id}/sessions`, c)).body) as any[]
      expect(sessions.map((s) => [s.title, s.wrapUp, s.lastReply])).toEqual([
        ['add the ratchet module', 'Ratchet module added; the pawl spring is next', 'The ratchet is in.'],
      ])
      const session = JSON.parse((await get(ex.port, `/api/sessions/${sessions[0].id}`, c)).body)
      expect(session.wrapUp).toBe('Wrap-up: Ratchet module added; the pawl spring is next. Decisions: one pawl, not two (why: the second jammed)')
      expect(session.lastReply).toBe('The ratchet is in.')
    } finally {
      ex.child.kill('SIGINT')
    }
  })
})
