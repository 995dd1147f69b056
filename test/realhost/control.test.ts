/**
 * The capture switch in the real host (Claude Code 2.1.332, hooks wired by `bookmark setup`): `bookmark off`
 * for the project, `bookmark off --session ID` for one session, and `BOOKMARK_DISABLE=1` for one run. While
 * off, the hooks inject nothing (the model's first request has no bookmark context) and write nothing (no
 * snapshot, no change in the store or the bookmark home). Switched on again, the next session is restored and
 * captured. The scenarios build on each other (one project, one config dir) and run in order.
 *
 * Run: npm run build && npx vitest run test/realhost/control.test.ts
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type FakeAnthropic, type RecordedRequest, allText, say, startFakeAnthropic, textOf, write } from './fake-anthropic.js'
import { type Run, type World, claudeStatus, createWorld, installHooks, newSessionId, runBookmark, runClaude } from './harness.js'
import { afterOk, expectScriptDone } from './script.js'

const claude = claudeStatus()
if (!claude.available) console.warn(`real-host capture-switch tests skipped: ${claude.why}`)

let fake: FakeAnthropic
let world: World

interface SnapshotJson {
  trigger: string
  session: { id: string }
  files: { path: string }[]
}

interface StatusJson {
  snapshots: number
  capture: { on: boolean; offBy: string | null; sessionsOff: { sessionId: string; since: string }[] }
}

function snapshots(): SnapshotJson[] {
  const dir = join(world.proj, '.bookmark', 'snapshots')
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as SnapshotJson)
}

const filesOf = (sessionId: string): string[] =>
  [
    ...new Set(
      snapshots()
        .filter((s) => s.session.id === sessionId)
        .flatMap((s) => s.files.map((f) => f.path)),
    ),
  ].sort()

/**
 * Every file we keep, with a hash of its content: the project's store and the bookmark home. Not the
 * launcher's code cache (BOOKMARK_HOME/cache), which bin/bookmark.cjs keeps before it reads any switch.
 */
function storeFingerprint(): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (base: string, dir: string): void => {
    if (!existsSync(dir)) return
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      const rel = `${base}/${relative(base === 'home' ? world.bookmarkHome : join(world.proj, '.bookmark'), p)}`
      if (base === 'home' && rel === 'home/cache') continue
      if (e.isDirectory()) walk(base, p)
      else out[rel] = createHash('sha1').update(readFileSync(p)).digest('hex')
    }
  }
  walk('store', join(world.proj, '.bookmark'))
  walk('home', world.bookmarkHome)
  return out
}

/** The SessionStart contexts in a request, as 2.1.332 puts them: `SessionStart hook additional context: …` up to the next section. */
function sessionStartSegments(req: RecordedRequest): string[] {
  const marker = 'SessionStart hook additional context: '
  const out: string[] = []
  for (const m of req.body!.messages ?? []) {
    const text = textOf(m.content)
    let at = text.indexOf(marker)
    while (at !== -1) {
      const start = at + marker.length
      const ends = [`\n${marker}`, '\n\n# Environment', "\n\nToday's date is ", '\nUserPromptSubmit hook additional context: ']
        .map((t) => text.indexOf(t, start))
        .filter((i) => i !== -1)
      const end = ends.length > 0 ? Math.min(...ends) : text.length
      out.push(text.slice(start, end))
      at = text.indexOf(marker, end)
    }
  }
  return out
}

/**
 * One session that writes `file` and says so; returns the SessionStart contexts its first request carried.
 * With `quiet`, checks that no hook added any context at all (SessionStart or UserPromptSubmit).
 */
async function session(sessionId: string, file: string, opts: { env?: NodeJS.ProcessEnv; resume?: boolean; quiet?: boolean } = {}): Promise<string[]> {
  fake.script(write(join(world.proj, file), `${file}\n`), afterOk(say(`${file} is written.`)))
  const mark = fake.mark()
  const r = await runClaude(world, `Write ${file}.`, { ...(opts.resume ? { resume: sessionId } : { sessionId }), ...(opts.env ? { env: opts.env } : {}) })
  expect(r.json.result).toBe(`${file} is written.`)
  expectScriptDone(fake, mark)
  expect(readFileSync(join(world.proj, file), 'utf8')).toBe(`${file}\n`)
  const [first] = fake.mainRequests(mark)
  if (opts.quiet) expect(allText(first!.body!)).not.toMatch(/hook additional context|# Bookmark/)
  return sessionStartSegments(first!)
}

async function ok(r: Promise<Run>): Promise<Run> {
  const done = await r
  expect(done.code, done.stderr).toBe(0)
  return done
}

const statusJson = async (env?: NodeJS.ProcessEnv): Promise<StatusJson> =>
  JSON.parse((await ok(runBookmark(world, ['status', '--json'], env ? { env } : {}))).stdout) as StatusJson
const statusText = async (env?: NodeJS.ProcessEnv): Promise<string> => (await ok(runBookmark(world, ['status'], env ? { env } : {}))).stdout

let firstDone = false
const needFirst = (): void => {
  if (!firstDone) throw new Error('the first session was not captured: this scenario builds on it')
}

describe.skipIf(!claude.available)('real host: bookmark off / on and BOOKMARK_DISABLE (Claude Code 2.1.332)', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    fake = await startFakeAnthropic()
    world = createWorld(fake, 'bm-realhost-control-')
    await installHooks(world)
  })

  beforeEach(() => fake.clearScript())

  afterAll(async () => {
    await fake?.close()
    world?.cleanup()
  })

  it('a first session with work is captured', async () => {
    const sid = newSessionId()
    await session(sid, 'a.txt')
    expect(filesOf(sid)).toEqual(['a.txt'])
    expect((await statusJson()).capture).toEqual({ on: true, offBy: null, sessionsOff: [] })
    expect(await statusText()).toMatch(/^Capture: {3}on$/m)
    firstDone = true
  })

  it('bookmark off: the next session gets nothing injected and nothing is captured', async () => {
    needFirst()
    const off = await ok(runBookmark(world, ['off']))
    expect(off.stdout).toMatch(new RegExp(`^Capture off for ${world.proj} \\(kept in .+config\\.json\\)\\.\\n$`))
    expect((await statusJson()).capture).toEqual({ on: false, offBy: 'project', sessionsOff: [] })
    expect(await statusText()).toContain('Capture:   capture is off for this project; `bookmark on` turns it on')

    const before = storeFingerprint()
    const sid = newSessionId()
    expect(await session(sid, 'b.txt', { quiet: true })).toEqual([])
    expect(filesOf(sid)).toEqual([])
    expect(storeFingerprint()).toEqual(before)
  })

  it('bookmark on: the following session is restored again and captured', async () => {
    needFirst()
    const on = await ok(runBookmark(world, ['on']))
    expect(on.stdout).toMatch(new RegExp(`^Capture on for ${world.proj} \\(kept in .+config\\.json\\)\\.\\n$`))
    expect((await statusJson()).capture).toEqual({ on: true, offBy: null, sessionsOff: [] })

    const sid = newSessionId()
    const contexts = await session(sid, 'c.txt')
    expect(contexts).toHaveLength(1)
    expect(contexts[0]).toContain('# Bookmark: continuing work in `proj`')
    expect(contexts[0]).toContain('a.txt')
    expect(contexts[0]).not.toContain('b.txt') // the session while off left nothing to restore
    expect(filesOf(sid)).toEqual(['c.txt'])
  })

  it('bookmark off --session: only that session is left alone; on --session catches up on what it did', async () => {
    needFirst()
    const quiet = newSessionId()
    const off = await ok(runBookmark(world, ['off', '--session', quiet]))
    expect(off.stdout).toContain(`Capture off for session ${quiet} in ${world.proj}`)
    const st = await statusJson()
    expect(st.capture.on).toBe(true)
    expect(st.capture.sessionsOff.map((s) => s.sessionId)).toEqual([quiet])
    expect(await statusText()).toContain(`off for session ${quiet} (\`bookmark on --session ID\`)`)

    const before = storeFingerprint()
    expect(await session(quiet, 'd.txt', { quiet: true })).toEqual([])
    expect(filesOf(quiet)).toEqual([])
    expect(storeFingerprint()).toEqual(before)

    // Another session meanwhile: restored and captured as usual.
    const other = newSessionId()
    const contexts = await session(other, 'e.txt')
    expect(contexts).toHaveLength(1)
    expect(contexts[0]).toContain('c.txt')
    expect(filesOf(other)).toEqual(['e.txt'])

    // Switched on, the session's next turn is captured with what its transcript gained while it was off.
    await ok(runBookmark(world, ['on', '--session', quiet]))
    expect((await statusJson()).capture.sessionsOff).toEqual([])
    await session(quiet, 'f.txt', { resume: true })
    expect(filesOf(quiet)).toEqual(['d.txt', 'f.txt'])
  })

  it('BOOKMARK_DISABLE=1 switches off one run only', async () => {
    needFirst()
    const env = { BOOKMARK_DISABLE: '1' }
    expect((await statusJson(env)).capture).toEqual({ on: false, offBy: 'env', sessionsOff: [] })
    expect(await statusText(env)).toContain('Capture:   capture is off for this run (BOOKMARK_DISABLE in the environment); unset BOOKMARK_DISABLE turns it on')

    const before = storeFingerprint()
    const sid = newSessionId()
    expect(await session(sid, 'g.txt', { env, quiet: true })).toEqual([])
    expect(filesOf(sid)).toEqual([])
    expect(storeFingerprint()).toEqual(before)

    // Nothing was kept: without the variable the next run is restored and captured.
    expect((await statusJson()).capture.on).toBe(true)
    const next = newSessionId()
    expect(await session(next, 'h.txt')).toHaveLength(1)
    expect(filesOf(next)).toEqual(['h.txt'])
    expect(storeFingerprint()).not.toEqual(before) // the fingerprint does see a capture
  })

  it('no hook failure was logged, and every request reached the fake over 127.0.0.1', () => {
    const logs = [join(world.proj, '.bookmark', 'errors.log'), join(world.bookmarkHome, 'errors.log')].filter((p) => existsSync(p))
    expect(logs.map((p) => readFileSync(p, 'utf8')).join('')).toBe('')
    expect([...new Set(fake.requests.map((r) => r.remoteAddress))]).toEqual(['127.0.0.1'])
    expect([...new Set(fake.requests.map((r) => `${r.method} ${r.path}`))]).toEqual(['POST /v1/messages'])
    expect(fake.requests.filter((r) => r.status !== 200).map((r) => `${r.seq} ${r.kind} ${r.status}`)).toEqual([])
  })
})
