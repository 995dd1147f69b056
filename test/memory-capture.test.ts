/**
 * The capturing Stop appends its turn's search events (issue 20), run as Claude Code runs the hook, in a sandbox
 * (never the real ~/.claude or ~/.bookmark): the events with their transcript:line, found by search with no
 * catch-up, nothing of the memory's code loaded without a store, a busy lock never waited for, a catch-up and a
 * capture reading the same lines without a duplicate, writers killed at any point (and at the two points that
 * matter, on purpose) recovering without a lost, torn or doubled event, and a first-version log.json read on.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BIN, type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'
import { ALNUM, fake } from './helpers/fake-secrets.js'
import { CORPUS } from './helpers/corpus.js'

const SID = 'aaaaaaaa-1111-4222-8333-444444444444'

interface World extends Sandbox {
  project: string
  transcript: string
  hook: NodeJS.ProcessEnv
  memory: string
}

async function world(): Promise<World> {
  const sb = await sandbox()
  const project = await gitRepo(join(sb.dir, 'app'))
  const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', '-app')
  await mkdir(dir, { recursive: true })
  return {
    ...sb,
    project,
    transcript: join(dir, `${SID}.jsonl`),
    hook: { ...sb.env, CLAUDE_PROJECT_DIR: project, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' },
    memory: join(sb.env.BOOKMARK_HOME!, 'memory'),
  }
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november']
const request = (n: number): string => `turn ${WORDS[n]}: rename the ${WORDS[n]}capacitor module`

/** One turn appended to the session: the request, a Write of src/<word>.ts with its result, the reply. */
async function turn(w: World, n: number, text = request(n)): Promise<void> {
  const o = { cwd: w.project, sessionId: SID }
  await appendFile(
    w.transcript,
    jsonl([
      prompt(text, o),
      call(`w${n}`, 'Write', { file_path: join(w.project, 'src', `${WORDS[n]}.ts`), content: 'export {}\n' }, { type: 'create' }, o),
      assistantText(`Done: ${WORDS[n]}`, o),
    ]),
  )
}

const payload = (w: World): string =>
  JSON.stringify({ session_id: SID, transcript_path: w.transcript, cwd: w.project, hook_event_name: 'Stop', stop_hook_active: false })

async function stop(w: World): Promise<void> {
  const r = await runCli(['stop'], { env: w.hook, cwd: w.project, input: payload(w) })
  expect(r.code, r.stderr).toBe(0)
  expect(r.stdout).toBe('')
}

const cli = (w: World, ...args: string[]) => runCli(args, { env: w.env, cwd: w.home })

interface Logged {
  id: string
  kind: string
  text: string
  transcript: string
  line: number
  session: string
  project: string
  paths?: string[]
}

/** The committed lines of the log, as a reader sees them: the current segment only up to log.json's commit point. */
function committedLines(w: World): string[] {
  const state = JSON.parse(readFileSync(join(w.memory, 'log.json'), 'utf8')) as { segment: number; committed: number }
  const dir = join(w.memory, 'events')
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const bytes = readFileSync(join(dir, f))
      return (Number.parseInt(f, 10) === state.segment ? bytes.subarray(0, state.committed) : bytes).toString('utf8').split('\n').slice(0, -1)
    })
}
/** Every committed line parses as an event (none torn), each id once. */
function events(w: World): Logged[] {
  const all = committedLines(w).map((l) => JSON.parse(l) as Logged)
  expect(new Set(all.map((e) => e.id)).size).toBe(all.length)
  return all
}
const requests = (w: World): string[] =>
  events(w)
    .filter((e) => e.kind === 'request')
    .map((e) => e.text)
const hints = (w: World): string[] => (existsSync(join(w.memory, 'pending')) ? readdirSync(join(w.memory, 'pending')) : [])
/** The 1-based line of the transcript that holds `text`. */
const lineOf = (w: World, text: string): number =>
  readFileSync(w.transcript, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text)) + 1

async function searchJson(w: World, ...args: string[]): Promise<any[]> {
  const r = await cli(w, 'search', ...args, '--json')
  expect(r.code, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as any[]
}

describe('a capturing Stop with the memory store present', () => {
  it('appends the turn’s events with their transcript line; search finds them without reading the transcript', async () => {
    const w = await world()
    expect((await cli(w, 'index')).code).toBe(0) // the store, empty: never backfilled
    const token = `ghp_${fake(ALNUM, 36)}`
    await turn(w, 0, `${request(0)} and deploy with GITHUB_TOKEN=${token}`)
    await stop(w)

    const logged = events(w)
    const req = logged.find((e) => e.kind === 'request')!
    expect(req.text).toContain(request(0))
    expect(req.text).not.toContain(token)
    expect(req.text).toContain('[REDACTED')
    expect(req).toMatchObject({ transcript: w.transcript, line: 1, session: SID, project: w.project })
    const file = logged.find((e) => e.kind === 'file')!
    expect(file).toMatchObject({ text: `created ${join(w.project, 'src', 'alpha.ts')} export {}`, paths: [join(w.project, 'src', 'alpha.ts')] })
    expect(file.line).toBe(lineOf(w, '"name":"Write"'))
    expect(logged.find((e) => e.kind === 'reply')).toMatchObject({ text: 'Done: alpha', line: lineOf(w, 'Done: alpha') })
    // Appended, not indexed: the Stop builds no index; nothing left to a catch-up but the new transcript's name.
    expect(readdirSync(join(w.memory, 'index'))).toEqual([])
    expect(readFileSync(join(w.memory, 'events', '000000.jsonl'), 'utf8')).not.toContain(token)

    // The transcript moved away: search can only have the events from the log.
    await rename(w.transcript, `${w.transcript}.moved`)
    const hits = await searchJson(w, 'alphacapacitor')
    expect(hits).toHaveLength(1)
    expect(hits[0]).toMatchObject({ kind: 'request', session: SID, transcript: w.transcript, line: 1 })
    const files = await searchJson(w, 'alpha.ts', '--kind', 'file')
    expect(files[0]).toMatchObject({ kind: 'file', line: file.line, transcript: w.transcript })
    const got = await cli(w, 'get', hits[0].id)
    expect(got.stdout).toContain(`Read more: ${w.transcript}:1`)
    await rename(`${w.transcript}.moved`, w.transcript)

    // The next turn goes the same way, from the checkpoint the first left.
    await turn(w, 1)
    await stop(w)
    expect(requests(w)).toEqual([expect.stringContaining(request(0)), request(1)])
    expect(hints(w)).toEqual([])
    expect((await searchJson(w, 'bravocapacitor'))[0]).toMatchObject({ line: lineOf(w, request(1)) })
  })

  it('without a memory store, creates none and loads none of its code', async () => {
    const w = await world()
    await turn(w, 0)
    await stop(w)
    await turn(w, 1)
    await stop(w)
    expect(existsSync(w.memory)).toBe(false)
    // Each bundle file a hook loads gets its code cache (bin/bookmark.cjs): the memory's chunk is not among them.
    const cache = readdirSync(join(w.env.BOOKMARK_HOME!, 'cache'))
    expect(cache.some((f) => f.startsWith('stop.turn-'))).toBe(true) // the capture's one chunk (scripts/bundle.mjs)
    expect(cache.filter((f) => f.startsWith('stop.capture-'))).toEqual([])

    expect((await cli(w, 'index')).code).toBe(0)
    await turn(w, 2)
    await stop(w)
    expect(readdirSync(join(w.env.BOOKMARK_HOME!, 'cache')).some((f) => f.startsWith('stop.capture-'))).toBe(true)
  })

  it('a session older than the store: left to the catch-up, then appended by each Stop', async () => {
    const w = await world()
    await turn(w, 0)
    await stop(w)
    expect((await cli(w, 'index')).code).toBe(0)
    await turn(w, 1)
    await stop(w) // lines 1-4 were never read into the log: this Stop cannot append lines 5-8 alone
    expect(committedLines(w)).toEqual([])
    expect(hints(w)).toHaveLength(1)
    expect((await searchJson(w, 'rename', '--recent')).map((h) => h.snippet)).toEqual([request(1), request(0)])
    expect(hints(w)).toEqual([])
    await turn(w, 2)
    await stop(w)
    expect(requests(w)).toEqual([request(0), request(1), request(2)])
    expect(hints(w)).toEqual([])
  })

  it('a long read (a first capture of a long session) is left to the catch-up', async () => {
    const w = await world()
    expect((await cli(w, 'index')).code).toBe(0)
    const o = { cwd: w.project, sessionId: SID }
    await appendFile(
      w.transcript,
      jsonl([prompt(request(0), o), call('big', 'Write', { file_path: join(w.project, 'big.txt'), content: 'x'.repeat(5 * 2 ** 20) }, { type: 'create' }, o)]),
    )
    await stop(w)
    expect(committedLines(w)).toEqual([])
    expect(hints(w)).toHaveLength(1)
    expect((await searchJson(w, 'alphacapacitor'))[0]).toMatchObject({ kind: 'request', line: 1 })
    await turn(w, 1)
    await stop(w)
    expect(requests(w)).toEqual([request(0), request(1)])
  })

  it('a catch-up that read ahead of the capture and the Stop after it log each line once', async () => {
    const w = await world()
    expect((await cli(w, 'index')).code).toBe(0)
    await turn(w, 0)
    await stop(w)
    expect((await searchJson(w, 'alphacapacitor')).length).toBe(1) // learns the transcript
    await turn(w, 1) // no Stop yet: the next search reads it
    expect((await searchJson(w, 'bravocapacitor')).length).toBe(1)
    await stop(w) // reads turn 1 too, past the capture's cursor but behind the log's checkpoint
    await turn(w, 2)
    await stop(w)
    expect(requests(w)).toEqual([request(0), request(1), request(2)])
    expect((await searchJson(w, 'rename', '--recent')).map((h) => h.snippet)).toEqual([request(2), request(1), request(0)])
    expect((await cli(w, 'index', '--backfill')).stdout).toMatch(/ 0 new events,/)
    expect(events(w).filter((e) => e.kind === 'request')).toHaveLength(3)
  })

  it('never waits for a busy memory lock: the events arrive with the next search', async () => {
    const w = await world()
    expect((await cli(w, 'index')).code).toBe(0)
    await turn(w, 0)
    await stop(w)
    // Another live bookmark process (this one) holds the lock.
    const lock = join(w.memory, 'memory.lock')
    const owner = JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'held-by-the-test', at: Date.now() })
    await writeFile(lock, owner)
    await turn(w, 1)
    const started = Date.now()
    await stop(w)
    // The store's lock timeout is 15 s: a Stop that waited for the lock would still be waiting.
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(await readFile(lock, 'utf8')).toBe(owner)
    expect(requests(w)).toEqual([request(0)])
    expect(hints(w)).toHaveLength(1)
    // The snapshot was written all the same.
    expect((await runCli(['show', '--json'], { env: w.hook, cwd: w.project })).stdout).toContain(request(1))

    await rm(lock)
    const hits = await searchJson(w, 'bravocapacitor')
    expect(hits[0]).toMatchObject({ kind: 'request', line: lineOf(w, request(1)) })
    expect(requests(w)).toEqual([request(0), request(1)])
    expect(hints(w)).toEqual([])
    await turn(w, 2)
    await stop(w)
    expect(requests(w)).toEqual([request(0), request(1), request(2)])
  })

  it('Stops and searches at once: every event once, nothing torn', async () => {
    const w = await world()
    expect((await cli(w, 'index')).code).toBe(0)
    for (let n = 0; n < 6; n++) {
      await turn(w, n)
      const [, found] = await Promise.all([stop(w), cli(w, 'search', 'rename', '--recent', '--json'), cli(w, 'search', `${WORDS[n]}.ts`)])
      expect(found.code, found.stderr).toBe(0)
    }
    const hits = await searchJson(w, 'rename', '--recent', '--limit', '20')
    expect(hits.map((h) => h.snippet)).toEqual([5, 4, 3, 2, 1, 0].map(request))
    expect(requests(w).sort()).toEqual([0, 1, 2, 3, 4, 5].map(request).sort())
    expect(events(w).filter((e) => e.kind === 'file')).toHaveLength(6)
  }, 120_000)
})

const ROLLOUT = join(CORPUS, 'host-samples', 'codex-0.171-exec-rollout-2-patch-file.jsonl')
const CODEX_SID = '01a2345e-2939-7733-81eb-319f86c45b47'

describe.skipIf(!existsSync(ROLLOUT))('a Codex CLI Stop', () => {
  it('appends the rollout’s events under its session id; a backfill after it finds nothing new', async () => {
    const w = await world()
    const dir = join(w.home, '.codex', 'sessions', '2026', '12', '02')
    await mkdir(dir, { recursive: true })
    w.env.CODEX_HOME = join(w.home, '.codex')
    const rollout = join(dir, `rollout-2026-12-02T01-28-35-${CODEX_SID}.jsonl`)
    await writeFile(rollout, (await readFile(ROLLOUT, 'utf8')).split('/home/dev/runs/w/proj').join(w.project))
    expect((await cli(w, 'index')).code).toBe(0)
    const stopPayload = { session_id: CODEX_SID, transcript_path: rollout, cwd: w.project, hook_event_name: 'Stop', stop_hook_active: true }
    const r = await runCli(['stop', '--host', 'codex'], {
      env: { ...w.env, CLAUDE_PROJECT_DIR: w.project },
      cwd: w.project,
      input: JSON.stringify(stopPayload),
    })
    expect(r.code, r.stderr).toBe(0)
    const logged = events(w)
    expect(logged.length).toBeGreaterThan(0)
    expect(logged.every((e) => e.session === CODEX_SID && e.transcript === rollout && (e as { host?: string }).host === 'codex')).toBe(true)
    const file = logged.find((e) => e.kind === 'file')!
    expect(file.text).toContain('patched.txt')
    expect(readFileSync(rollout, 'utf8').split('\n')[file.line - 1]).toContain('apply_patch')
    const backfill = await cli(w, 'index', '--backfill')
    expect(backfill.stdout).toMatch(/^Backfill: 1 transcripts, 0 read, 0 new events/)
    expect(events(w)).toHaveLength(logged.length)
  })
})

describe('a capture killed at any point', () => {
  it('bytes past the commit point (killed before its commit) are cut off by the next Stop', async () => {
    const w = await world()
    expect((await cli(w, 'index')).code).toBe(0)
    await turn(w, 0)
    await stop(w)
    const segment = join(w.memory, 'events', '000000.jsonl')
    const committed = readFileSync(segment)
    await appendFile(segment, `${committedLines(w)[0]}\n{"id":"torn","kind":"request","text":"half a wri`)
    expect(requests(w)).toEqual([request(0)]) // readers never see past the commit point
    await turn(w, 1)
    await stop(w)
    expect(readFileSync(segment).subarray(0, committed.length)).toEqual(committed)
    expect(readFileSync(segment, 'utf8')).not.toContain('half a wri')
    expect(requests(w)).toEqual([request(0), request(1)])
  })

  it('killed after log.json and before its checkpoint file: log.json’s copy is read, nothing is logged twice', async () => {
    const w = await world()
    expect((await cli(w, 'index')).code).toBe(0)
    await turn(w, 0)
    await stop(w)
    const sources = join(w.memory, 'sources')
    const [file] = readdirSync(sources)
    const old = await readFile(join(sources, file!), 'utf8')
    await turn(w, 1)
    await stop(w)
    // As a writer killed between the two writes leaves it: log.json has the new checkpoint, its file the old one.
    await writeFile(join(sources, file!), old)
    expect(JSON.parse(readFileSync(join(w.memory, 'log.json'), 'utf8')).last[w.transcript].lines).toBeGreaterThan(JSON.parse(old).lines)
    expect((await searchJson(w, 'rename', '--recent')).map((h) => h.snippet)).toEqual([request(1), request(0)])
    await turn(w, 2)
    await stop(w)
    expect(requests(w)).toEqual([request(0), request(1), request(2)])
    expect((await cli(w, 'index', '--backfill')).stdout).toMatch(/ 0 new events,/)
    expect(requests(w)).toHaveLength(3)
  })

  it('Stops killed with SIGKILL at random moments: no event lost, torn or doubled', async () => {
    const w = await world()
    expect((await cli(w, 'index')).code).toBe(0)
    await turn(w, 0)
    await stop(w)
    for (let n = 1; n < 12; n++) {
      await turn(w, n)
      const child = spawn(process.execPath, [BIN, 'stop'], { env: w.hook, cwd: w.project, stdio: ['pipe', 'ignore', 'ignore'] })
      const closed = new Promise((r) => child.on('close', r))
      child.stdin.end(payload(w))
      await new Promise((r) => setTimeout(r, 40 + ((n * 97) % 700)))
      child.kill('SIGKILL')
      await closed
    }
    await turn(w, 12)
    await stop(w)
    await searchJson(w, 'rename')
    const want = Array.from({ length: 13 }, (_, n) => request(n))
    expect(requests(w).sort()).toEqual(want.sort())
    expect(events(w).filter((e) => e.kind === 'file')).toHaveLength(13)
    expect((await searchJson(w, 'rename', '--recent', '--limit', '20')).map((h) => h.snippet).sort()).toEqual(want.sort())
  }, 180_000)
})

describe('a first-version log.json (every checkpoint in it)', () => {
  it('is read on by the next Stop, which moves the checkpoints to their files', async () => {
    const w = await world()
    await turn(w, 0)
    await stop(w)
    expect((await cli(w, 'index', '--backfill')).stdout).toMatch(/^Backfill: 1 transcripts, 1 read, 3 new events/)
    // The store as the first version wrote it.
    const state = JSON.parse(readFileSync(join(w.memory, 'log.json'), 'utf8')) as { segment: number; committed: number; last?: Record<string, unknown> }
    const sources = join(w.memory, 'sources')
    const cps = Object.fromEntries(
      readdirSync(sources).map((f) => {
        const { path, commit: _c, ...cp } = JSON.parse(readFileSync(join(sources, f), 'utf8')) as { path: string; commit: number }
        return [path, cp]
      }),
    )
    await writeFile(join(w.memory, 'log.json'), JSON.stringify({ version: 1, segment: state.segment, committed: state.committed, sources: cps }))
    await rm(sources, { recursive: true })
    await rm(join(w.memory, 'seen.json'))

    await turn(w, 1)
    await stop(w)
    expect(requests(w)).toEqual([request(0), request(1)])
    expect(JSON.parse(readFileSync(join(w.memory, 'log.json'), 'utf8'))).toMatchObject({ version: 2 })
    expect(readdirSync(sources)).toHaveLength(1)
    expect(JSON.parse(readFileSync(join(w.memory, 'seen.json'), 'utf8'))).toMatchObject({ backfilled: true })
    expect((await cli(w, 'index', '--backfill')).stdout).toMatch(/ 0 new events,/)
    expect((await searchJson(w, 'rename', '--recent')).map((h) => h.snippet)).toEqual([request(1), request(0)])
  })
})
