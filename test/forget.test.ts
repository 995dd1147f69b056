/**
 * `bookmark forget` end to end: two sessions captured by the Stop hook (A twice, then B), then one snapshot,
 * one session or all of them forgotten. Each request carries a marker string, so a test can tell whether
 * anything of a forgotten snapshot is left in the files, the commands' output or the next session's restore.
 */
import { readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { Readable } from 'node:stream'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'
import { repoHeader, stateDir } from './helpers/narrative.js'
import { testDeps } from './helpers/deps.js'
import { forget } from '../src/commands/forget.js'

let sb: Sandbox
let project: string
let store: string
const SID_A = 'aaaaaaaa-1111-4222-8333-000000000001'
const SID_B = 'bbbbbbbb-1111-4222-8333-000000000002'
const ALPHA = 'ALPHAMARK'
const ALPHA2 = 'ALPHASECOND'
const BRAVO = 'BRAVOMARK'
const transcriptOf = (sid: string): string => join(sb.dir, `${sid}.jsonl`)

async function stop(sid: string): Promise<void> {
  const input = JSON.stringify({ session_id: sid, transcript_path: transcriptOf(sid), cwd: project, hook_event_name: 'Stop', stop_hook_active: false })
  const r = await runCli(['stop'], { env: { ...sb.env, CLAUDE_PROJECT_DIR: project, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' }, cwd: project, input })
  expect(r.code, r.stderr).toBe(0)
}

async function turn(sid: string, request: string, file: string): Promise<void> {
  const lines = [
    prompt(request, { cwd: project, sessionId: sid }),
    call(`w-${file}`, 'Write', { file_path: join(project, file), content: 'x\n' }, { type: 'create' }, { cwd: project, sessionId: sid }),
    assistantText(`Done: ${request}`, { cwd: project, sessionId: sid }),
  ]
  await writeFile(transcriptOf(sid), jsonl(lines), { flag: 'a' })
  await stop(sid)
}

const cli = (...args: string[]) => runCli(args, { env: sb.env, cwd: project })

async function listed(): Promise<{ id: string; sessionId: string }[]> {
  const r = await cli('list', '--json', '--limit', '50')
  expect(r.code, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as { entries: { id: string; sessionId: string }[] }).entries
}

/** What a new session started in the project would be given. */
async function startup(): Promise<string> {
  const input = JSON.stringify({
    session_id: 'cccccccc-0000-4000-8000-000000000000',
    transcript_path: join(sb.dir, 'none.jsonl'),
    cwd: project,
    hook_event_name: 'SessionStart',
    source: 'startup',
  })
  const r = await runCli(['restore'], { env: { ...sb.env, CLAUDE_PROJECT_DIR: project }, cwd: project, input })
  expect(r.code, r.stderr).toBe(0)
  return r.stdout.trim() === '' ? '' : (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext
}

const text = (path: string): Promise<string> => readFile(path, 'utf8')
const registry = async () =>
  (JSON.parse(await text(join(sb.env.BOOKMARK_HOME!, 'registry.json'))) as { entries: { project: string; snapshotId: string }[] }).entries
const trail = async () =>
  JSON.parse((await text(join(store, 'trails', 'files.json'))).replace(/^[^{]*/, '')) as { files: Record<string, { snapshot: string }[]> }
const stateFiles = async (sub: string) => readdir(join(await stateDir(sb.env.BOOKMARK_HOME!, project), sub)).catch(() => [] as string[])
/** Everything bookmark keeps of the project, as one text: the forgotten markers must be in none of it. */
async function everything(): Promise<string> {
  const parts: string[] = []
  for (const dir of [store, join(store, 'snapshots'), join(store, 'trails')]) {
    for (const name of await readdir(dir).catch(() => [] as string[])) if (name.includes('.')) parts.push(await text(join(dir, name)).catch(() => ''))
  }
  const state = await stateDir(sb.env.BOOKMARK_HOME!, project)
  for (const sub of ['', 'cursors', 'sessions']) {
    for (const name of await readdir(join(state, sub)).catch(() => [] as string[])) parts.push(await text(join(state, sub, name)).catch(() => ''))
  }
  for (const name of ['registry.json', 'bookmark.context.md']) parts.push(await text(join(sb.env.BOOKMARK_HOME!, name)).catch(() => ''))
  return parts.join('\n')
}

let A1: string
let A2: string
let B1: string

beforeEach(async () => {
  sb = await sandbox()
  project = await gitRepo(join(sb.dir, 'proj'))
  store = join(project, '.bookmark')
  await turn(SID_A, `${ALPHA} add the alpha exporter`, 'src/alpha.ts')
  await turn(SID_A, `${ALPHA2} now test the alpha exporter`, 'src/alpha2.ts')
  await turn(SID_B, `${BRAVO} add the bravo importer`, 'src/bravo.ts')
  const ids = await listed()
  expect(ids.map((e) => e.sessionId)).toEqual([SID_B, SID_A, SID_A])
  ;[B1, A2, A1] = ids.map((e) => e.id) as [string, string, string]
  // The setting the tests rely on: the latest capture (B) is in every derived file.
  expect(await text(join(store, 'LATEST.md'))).toContain(BRAVO)
  expect(await startup()).toContain(BRAVO)
  expect(await text(join(sb.env.BOOKMARK_HOME!, 'bookmark.context.md'))).toContain(BRAVO)
  expect(existsSync(join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'restore.prepared.json'))).toBe(true)
})

describe('bookmark forget SNAP_ID', () => {
  it('removes the snapshot and what was derived from it; the others stay intact', async () => {
    await writeFile(join(store, 'bookmark.context.md'), '# Handoff written by the model\n')
    const r = await cli('forget', B1)
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain(`Forgot 1 snapshot of ${project}: ${B1}`)
    expect(r.stdout).toContain(`LATEST.md now shows ${A2} (2 snapshots left)`)
    // B's cursor still holds the session: the output says so, and how to forget it all.
    expect(r.stdout).toContain(`\`bookmark forget --session ${SID_B}\``)
    expect(r.stdout).toContain('the handoff') // kept, and said so
    expect(await text(join(store, 'bookmark.context.md'))).toBe('# Handoff written by the model\n')

    expect((await listed()).map((e) => e.id)).toEqual([A2, A1])
    expect(existsSync(join(store, 'snapshots', `${B1}.json`))).toBe(false)
    const shown = await cli('show', B1)
    expect(shown.code).toBe(1)
    expect(shown.stderr).toContain(`snapshot ${B1} does not exist`)
    const latest = await cli('show')
    expect(latest.stdout).toContain(ALPHA2)
    expect(latest.stdout).not.toContain(BRAVO)
    expect(await text(join(store, 'LATEST.md'))).toContain(ALPHA2)
    expect(Object.keys((await trail()).files).sort()).toEqual(['src/alpha.ts', 'src/alpha2.ts'])
    expect(await text(join(store, 'trails', 'files.md'))).not.toContain('bravo')
    expect((await registry()).map((e) => e.snapshotId)).toEqual([A2, A1])
    expect(existsSync(join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'restore.prepared.json'))).toBe(false)
    const restored = await startup()
    expect(restored).toContain(ALPHA2)
    expect(restored).not.toContain(BRAVO)
    // Only B's cursor state (which the note names) may still hold it.
    expect((await everything()).split(BRAVO).length - 1).toBe(await stateCursorHits(SID_B))
    // The snapshots left are as they were: still readable and sealed.
    const a1 = await cli('show', A1, '--json')
    expect(a1.code, a1.stderr).toBe(0)
    expect(JSON.parse(a1.stdout).task).toContain(ALPHA)
  })

  it('an older snapshot: LATEST.md and the trail of the newer ones are kept', async () => {
    const r = await cli('forget', A1, '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ forgotten: [A1], remaining: 2, latest: B1, registryRemoved: 1, handoff: 'none', resetSessions: [] })
    expect((await listed()).map((e) => e.id)).toEqual([B1, A2])
    expect(await text(join(store, 'LATEST.md'))).toContain(BRAVO)
    // src/alpha.ts's line named A1, the capture that touched it; A2 holds the session so far and lists it too.
    const files = (await trail()).files
    expect(Object.keys(files).sort()).toEqual(['src/alpha.ts', 'src/alpha2.ts', 'src/bravo.ts'])
    expect(files['src/alpha.ts']!.map((e) => e.snapshot)).toEqual([A2])
    expect(JSON.stringify(files)).not.toContain(A1)
    expect((await registry()).map((e) => e.snapshotId)).toEqual([B1, A2])
  })
})

/** How many times the marker appears in the session's cursor files (the state forget SNAP_ID keeps). */
async function stateCursorHits(sid: string): Promise<number> {
  const dir = join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'cursors')
  let n = 0
  for (const name of await readdir(dir)) if (name.startsWith(sid)) n += (await text(join(dir, name))).split(BRAVO).length - 1
  return n
}

describe('bookmark forget --session', () => {
  it('forgets every snapshot of the session and its capture state; the next capture starts over', async () => {
    const r = await cli('forget', '--session', SID_A, '--json')
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ forgotten: [A2, A1], remaining: 1, latest: B1, registryRemoved: 2, resetSessions: [SID_A] })
    expect(out.notes.join('\n')).toContain(`session ${SID_A} starts over`)
    expect((await listed()).map((e) => e.id)).toEqual([B1])
    expect(await readdir(join(store, 'snapshots'))).toEqual([`${B1}.json`])
    expect(Object.keys((await trail()).files)).toEqual(['src/bravo.ts'])
    expect((await registry()).map((e) => e.snapshotId)).toEqual([B1])
    expect((await stateFiles('cursors')).filter((n) => n.startsWith(SID_A) && !n.endsWith('.lock'))).toEqual([])
    expect((await stateFiles('sessions')).filter((n) => n.startsWith(SID_A) && !n.endsWith('.lock'))).toEqual([])
    expect((await stateFiles('cursors')).filter((n) => n.startsWith(SID_B))).toContain(`${SID_B}.json`)
    const all = await everything()
    expect(all).not.toContain(ALPHA)
    expect(all).not.toContain(ALPHA2)
    expect(all).toContain(BRAVO)
    const restored = await startup()
    expect(restored).toContain(BRAVO)
    expect(restored).not.toContain(ALPHA)
    // Forgetting the capture does not forbid the next one: it reads the transcript from its start.
    const again = await runCli(['snapshot', '--transcript', transcriptOf(SID_A), '--cwd', project, '--json'], { env: sb.env })
    expect(again.code, again.stderr).toBe(0)
    expect(JSON.parse(again.stdout).stats.restarted === true || JSON.parse(again.stdout).stats.bytesRead > 0).toBe(true)
    const shown = await cli('show', '--json')
    expect(
      JSON.parse(shown.stdout)
        .requests.all.map((p: { text: string }) => p.text)
        .join('\n'),
    ).toContain(ALPHA)
  })
})

describe('bookmark forget --all', () => {
  it('asks first: without a terminal and without --yes nothing is forgotten', async () => {
    const r = await cli('forget', '--all')
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain('confirm in a terminal, or add --yes')
    expect(await listed()).toHaveLength(3)
  })

  it('with --yes forgets every snapshot, every session state and the handoff', async () => {
    await writeFile(join(store, 'bookmark.context.md'), `# Handoff: ${BRAVO} was the last thing\n`)
    expect(await startup()).toContain(BRAVO) // noted in the project's figures
    expect(await stateFiles('')).toContain('stats.jsonl')
    const r = await cli('forget', '--all', '--yes')
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('Forgot 3 snapshots')
    expect(r.stdout).toContain('No snapshot left: LATEST.md removed.')
    expect(r.stdout).toContain('Removed the handoff')
    expect(await listed()).toEqual([])
    expect(await readdir(join(store, 'snapshots'))).toEqual([])
    for (const gone of ['LATEST.md', 'bookmark.context.md', 'trails/files.json', 'trails/files.md']) expect(existsSync(join(store, gone)), gone).toBe(false)
    expect((await registry()).filter((e) => e.project === project)).toEqual([])
    expect((await stateFiles('cursors')).filter((n) => !n.endsWith('.lock'))).toEqual([])
    expect((await stateFiles('sessions')).filter((n) => !n.endsWith('.lock'))).toEqual([])
    expect(await stateFiles('')).not.toContain('stats.jsonl')
    // The home pointer quoted B's request: it named this project, which has nothing left to point to.
    expect(existsSync(join(sb.env.BOOKMARK_HOME!, 'bookmark.context.md'))).toBe(false)
    const all = await everything()
    for (const mark of [ALPHA, ALPHA2, BRAVO]) expect(all).not.toContain(mark)
    const restored = await startup()
    for (const mark of [ALPHA, ALPHA2, BRAVO]) expect(restored).not.toContain(mark)
    const shown = await cli('show')
    expect(shown.code).toBe(1)
    expect(shown.stderr).toContain('no snapshots yet')
  })

  it('leaves nothing of a sealed handoff in the bookmark home, the redacted body kept for the next restore included', async () => {
    const HANDOFF = 'HANDOFFMARK'
    const header = await repoHeader(sb.env.BOOKMARK_HOME!, project, SID_B, new Date(Date.now() - 60_000).toISOString())
    const body = `# Handoff: proj\n\n## Task\n${HANDOFF} ship the bravo importer.\n\n## Decisions\nKeep the importer streaming, because exports run to gigabytes.\n\n## Next step\nAdd the CSV header check, then release it.\n`
    await writeFile(join(store, 'bookmark.context.md'), `${header}\n${body}`)
    await turn(SID_B, 'one more step on the importer', 'src/bravo2.ts') // prepares the next restore from the handoff
    expect(await stateFiles('')).toContain('narrative.body.json')
    expect(await everything()).toContain(HANDOFF)
    const r = await cli('forget', '--all', '--yes')
    expect(r.code, r.stderr).toBe(0)
    expect(await stateFiles('')).not.toContain('narrative.body.json')
    expect(await everything()).not.toContain(HANDOFF)
  })

  it("--keep-handoff keeps the model's handoff", async () => {
    await writeFile(join(store, 'bookmark.context.md'), '# Handoff\n')
    const r = await cli('forget', '--all', '--yes', '--keep-handoff', '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ remaining: 0, latest: null, handoff: 'kept' })
    expect(await text(join(store, 'bookmark.context.md'))).toBe('# Handoff\n')
  })
})

describe('bookmark forget: bad input', () => {
  it.each([
    [['forget', 'SNAP_nope'], 'not a snapshot id: "SNAP_nope"'],
    [['forget', 'SNAP_20990101_000000_000_abcd'], 'snapshot SNAP_20990101_000000_000_abcd does not exist'],
    [['forget', '--session', 'no-such-session'], 'session no-such-session has no snapshots'],
    [['forget'], 'forget needs exactly one of'],
    [['forget', '--session', SID_A, '--all'], 'forget needs exactly one of'],
    [['forget', '--session', SID_A, '--keep-handoff'], '--keep-handoff goes with --all'],
  ])('%j: one line on stderr, exit 1, nothing forgotten', async (args, message) => {
    const r = await cli(...args)
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain(message)
    expect((await listed()).map((e) => e.id)).toEqual([B1, A2, A1])
    expect(await text(join(store, 'LATEST.md'))).toContain(BRAVO)
  })
})

describe('bookmark forget and the search memory', () => {
  const WRAP_A = 'WRAPALPHA'
  const WRAP_B = 'WRAPBRAVO'
  const memory = () => join(sb.env.BOOKMARK_HOME!, 'memory')
  /** Every file of the memory store as text (the log, the checkpoints, seen.json, the index). */
  const memoryText = (): string => {
    const out: string[] = []
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(dir, e.name))
        else out.push(readFileSync(join(dir, e.name), 'latin1'))
      }
    }
    walk(memory())
    return out.join('\n')
  }
  const search = async (query: string): Promise<{ kind: string; snippet: string; session: string }[]> => {
    const r = await runCli(['search', query, '--all', '--json'], { env: sb.env, cwd: project })
    expect(r.code, r.stderr).toBe(0)
    return JSON.parse(r.stdout)
  }
  const wrapups = async () => readdir(join(store, 'wrapups')).catch(() => [] as string[])

  /** The memory store made after the sessions began: their next Stops name them, the next search reads them whole; one wrap-up each. */
  async function withMemory(): Promise<void> {
    expect((await cli('index')).code).toBe(0)
    await turn(SID_A, `${ALPHA}3 third alpha step`, 'src/alpha3.ts')
    await turn(SID_B, `${BRAVO}2 second bravo step`, 'src/bravo2.ts')
    expect((await search(ALPHA2)).map((h) => h.kind)).toContain('request')
    for (const [sid, mark] of [
      [SID_A, WRAP_A],
      [SID_B, WRAP_B],
    ] as const) {
      const r = await cli('wrapup', '--summary', `${mark} wrapped up`, '--open', `${mark} thread`, '--session-id', sid, '--json')
      expect(r.code, r.stderr).toBe(0)
      expect(JSON.parse(r.stdout)).toMatchObject({ indexed: true, wrapup: { session: sid } })
    }
    expect(await wrapups()).toHaveLength(2)
    for (const mark of [ALPHA, ALPHA2, BRAVO, WRAP_A, WRAP_B]) expect((await search(mark)).length, mark).toBeGreaterThan(0)
    expect(memoryText()).toContain(ALPHA2)
  }

  it('--session drops the session’s wrap-ups and search events; the other session’s stay; later turns are recorded', async () => {
    await withMemory()
    const r = await cli('forget', '--session', SID_A, '--json')
    expect(r.code, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ wrapupsRemoved: 1, resetSessions: [SID_A] })
    expect(out.forgotten).toHaveLength(3)
    // A's three turns (request, file change, reply each) and its wrap-up.
    expect(out.searchEventsRemoved).toBe(10)
    const text = await cli('forget', '--session', SID_B)
    expect(text.stdout).toContain('Removed 1 wrap-up from .bookmark/wrapups/.')
    expect(text.stdout).toContain('Dropped 7 events from the search memory (`bookmark search` no longer finds them).')
  })

  it('--session: nothing of the session is left in the memory store, and it never comes back', async () => {
    await withMemory()
    expect((await cli('forget', '--session', SID_A)).code).toBe(0)
    expect((await wrapups()).length).toBe(1)
    for (const mark of [ALPHA, ALPHA2, WRAP_A]) expect(await search(mark), mark).toEqual([])
    expect((await search(BRAVO)).every((h) => h.session === SID_B)).toBe(true)
    expect((await search(WRAP_B))[0]).toMatchObject({ kind: 'wrapup', session: SID_B })
    const left = memoryText()
    for (const mark of [ALPHA, WRAP_A, 'alpha exporter', 'third alpha step']) expect(left, mark).not.toContain(mark)
    expect(left).toContain(BRAVO)
    // Built again from the log, read again from the transcripts: still gone.
    expect((await cli('index', '--rebuild')).code).toBe(0)
    expect(await search(ALPHA)).toEqual([])
    const orient = await runCli(['search', '--project', 'proj'], { env: sb.env, cwd: project })
    expect(orient.stdout).toContain(WRAP_B)
    expect(orient.stdout).not.toContain(WRAP_A)
    // The session goes on: what it does from now on is recorded, what was forgotten is not.
    await turn(SID_A, 'ALPHAFOURTH after the forget', 'src/alpha4.ts')
    expect((await search('ALPHAFOURTH')).map((h) => h.kind).sort()).toEqual(['reply', 'request'])
    expect(await search(ALPHA2)).toEqual([])
    expect(memoryText()).not.toContain(ALPHA2)
    // A transcript rewritten (its first line changed) is read again from its start: the forgotten lines stay out.
    const t = await readFile(transcriptOf(SID_A), 'utf8')
    await writeFile(transcriptOf(SID_A), t.replace(/"uuid":"[^"]*"/, '"uuid":"rewritten-0000"'))
    expect((await search('ALPHAFOURTH')).length).toBeGreaterThan(0)
    for (const mark of [ALPHA, ALPHA2, `${ALPHA}3`]) expect(await search(mark), mark).toEqual([])
    expect(memoryText()).not.toContain('third alpha step')
    expect(memoryText()).not.toContain(ALPHA2)
  })

  it('--session: lines the log has not read yet are never logged either', async () => {
    expect((await cli('index')).code).toBe(0)
    // Both sessions began before the store: their Stops leave them to the next search, which has not run.
    await turn(SID_A, `${ALPHA}3 third alpha step`, 'src/alpha3.ts')
    await turn(SID_B, `${BRAVO}2 second bravo step`, 'src/bravo2.ts')
    await writeFile(transcriptOf(SID_A), jsonl([prompt('ALPHAUNSTOPPED typed, no Stop yet', { cwd: project, sessionId: SID_A })]), { flag: 'a' })
    const r = await cli('forget', '--session', SID_A, '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ searchEventsRemoved: 0 })
    for (const mark of [ALPHA, ALPHA2, `${ALPHA}3`, 'ALPHAUNSTOPPED']) expect(await search(mark), mark).toEqual([])
    expect((await search(`${BRAVO}2`)).length).toBeGreaterThan(0)
    expect(memoryText()).not.toContain('ALPHA')
    await turn(SID_A, 'ALPHAFOURTH after the forget', 'src/alpha4.ts')
    expect((await search('ALPHAFOURTH')).length).toBeGreaterThan(0)
    expect(await search('ALPHAUNSTOPPED')).toEqual([])
  })

  it('--all drops every wrap-up and every event of the project; the restore no longer shows a wrap-up', async () => {
    await withMemory()
    expect(await startup()).toContain(WRAP_B)
    const r = await cli('forget', '--all', '--yes', '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ wrapupsRemoved: 2 })
    expect(await wrapups()).toEqual([])
    for (const mark of [ALPHA, ALPHA2, BRAVO, WRAP_A, WRAP_B]) expect(await search(mark), mark).toEqual([])
    const left = memoryText()
    for (const mark of [ALPHA, ALPHA2, BRAVO, WRAP_A, WRAP_B]) expect(left, mark).not.toContain(mark)
    const restored = await startup()
    expect(restored).not.toContain('The last wrap-up')
    expect(restored).not.toContain(WRAP_B)
  })

  it('a busy memory lock: nothing is forgotten, one clear error, and the rerun does it all', async () => {
    await withMemory()
    const lock = join(memory(), 'memory.lock')
    await writeFile(lock, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'held-by-the-test', at: Date.now() }))
    const deps = { ...(await testDeps()), env: sb.env, bookmarkHome: sb.env.BOOKMARK_HOME!, lockDeadline: Date.now() + 300 }
    await expect(forget({ session: SID_A, cwd: project }, { deps, stdin: Readable.from([]) })).rejects.toThrow(
      'the search memory is busy (another bookmark process is writing its index): nothing was forgotten; run the same forget again in a moment',
    )
    await rm(lock)
    expect((await listed()).filter((e) => e.sessionId === SID_A)).toHaveLength(3)
    expect(await wrapups()).toHaveLength(2)
    expect((await search(ALPHA2)).length).toBeGreaterThan(0)
    const r = await cli('forget', '--session', SID_A, '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ wrapupsRemoved: 1, searchEventsRemoved: 10 })
    expect(await search(ALPHA2)).toEqual([])
  })

  it('one snapshot: the session keeps its wrap-ups and its search events', async () => {
    await withMemory()
    const r = await cli('forget', B1, '--json')
    expect(r.code, r.stderr).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({ wrapupsRemoved: 0, searchEventsRemoved: 0 })
    expect(await wrapups()).toHaveLength(2)
    expect((await search(BRAVO)).length).toBeGreaterThan(0)
  })
})
