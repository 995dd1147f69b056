/**
 * `bookmark forget` end to end: two sessions captured by the Stop hook (A twice, then B), then one snapshot,
 * one session or all of them forgotten. Each request carries a marker string, so a test can tell whether
 * anything of a forgotten snapshot is left in the files, the commands' output or the next session's restore.
 */
import { readFile, readdir, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'
import { stateDir } from './helpers/narrative.js'

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
