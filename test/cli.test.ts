import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { type Sandbox, gitProject, runCli, sandbox } from './helpers/cli.js'
import { call, jsonl, prompt, assistantText } from './helpers/jsonl.js'
import { stateDir } from './helpers/narrative.js'

let sb: Sandbox
let project: string
let transcript: string

beforeEach(async () => {
  sb = await sandbox()
  project = await gitProject(sb)
  await mkdir(join(project, 'src', 'deep'), { recursive: true })
  transcript = join(sb.dir, 'session-a.jsonl')
  await writeFile(
    transcript,
    jsonl([
      prompt('add an export command', { cwd: project }),
      call('w1', 'Write', { file_path: join(project, 'src/export.ts'), content: 'export function exportCsv() {}\n' }, { type: 'create' }, { cwd: project }),
      assistantText('Export added.', { cwd: project }),
    ]),
  )
})

describe('bookmark snapshot / status / list / show', () => {
  it('captures into the project root even from a subfolder, and reports it', async () => {
    const r = await runCli(['snapshot', '--transcript', transcript, '--json'], { env: sb.env, cwd: join(project, 'src', 'deep') })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out).toMatchObject({ written: true, projectRoot: project, sessionId: 'session-a' })
    expect(out.snapshotId).toMatch(/^SNAP_\d{8}_\d{6}_\d{3}_[0-9a-f]{4}$/)
    const dir = join(project, '.bookmark')
    expect((await readdir(dir)).sort()).toEqual(['.gitignore', 'LATEST.md', 'index.json', 'snapshots', 'trails'])
    // What only this machine needs (cursors, session state) is kept in the bookmark home, not in the project.
    expect((await readdir(await stateDir(sb.env.BOOKMARK_HOME!, project))).sort()).toEqual(['cursors', 'sessions'])
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe('*\n')
    const latest = await readFile(join(dir, 'LATEST.md'), 'utf8')
    expect(latest).toContain('add an export command')
    expect(latest).toContain('`src/export.ts` created +1 -0 — +fn exportCsv')
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'))
    expect(index).toMatchObject({ version: 1, snapshots: [{ id: out.snapshotId, sessionId: 'session-a', files: 1 }] })
    const trail = await readFile(join(dir, 'trails', 'files.md'), 'utf8')
    expect(trail).toContain('## src/export.ts')
    const registry = JSON.parse(await readFile(join(sb.env.BOOKMARK_HOME!, 'registry.json'), 'utf8'))
    expect(registry.entries).toEqual([expect.objectContaining({ project, snapshotId: out.snapshotId })])
    await expect(readdir(join(project, 'src', 'deep'))).resolves.toEqual([]) // nothing written in the subfolder
  })

  it('writes no snapshot when nothing happened since the last capture (except a manual one)', async () => {
    const first = await runCli(['snapshot', '--transcript', transcript, '--cwd', project, '--trigger', 'stop', '--json'], { env: sb.env })
    expect(JSON.parse(first.stdout).written).toBe(true)
    const again = await runCli(['snapshot', '--transcript', transcript, '--cwd', project, '--trigger', 'stop', '--json'], { env: sb.env })
    expect(JSON.parse(again.stdout)).toMatchObject({ written: false, reason: 'no new activity since the last capture' })
    expect(JSON.parse(again.stdout).stats.bytesRead).toBe(0)
    const manual = await runCli(['snapshot', '--transcript', transcript, '--cwd', project, '--json'], { env: sb.env })
    expect(JSON.parse(manual.stdout).written).toBe(true)
  })

  it('status, list and show read what was written', async () => {
    const snap = JSON.parse((await runCli(['snapshot', '--transcript', transcript, '--cwd', project, '--json'], { env: sb.env })).stdout)
    const status = JSON.parse((await runCli(['status', '--json', '--cwd', project], { env: sb.env })).stdout)
    expect(status).toMatchObject({ projectRoot: project, snapshots: 1, sessions: 1, latest: { id: snap.snapshotId }, registryEntries: 1, problems: [] })
    const list = JSON.parse((await runCli(['list', '--json'], { env: sb.env, cwd: project })).stdout)
    expect(list.entries.map((e: { id: string }) => e.id)).toEqual([snap.snapshotId])
    const all = JSON.parse((await runCli(['list', '--all', '--json'], { env: sb.env })).stdout)
    expect(all.entries).toEqual([expect.objectContaining({ project, snapshotId: snap.snapshotId })])
    const shown = await runCli(['show', snap.snapshotId], { env: sb.env, cwd: project })
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('## Current task')
    const latest = JSON.parse((await runCli(['show', '--latest', '--json'], { env: sb.env, cwd: project })).stdout)
    expect(latest.id).toBe(snap.snapshotId)
  })

  it.each([
    [['list', '--limit', 'abc'], /expected a positive whole number, got "abc"/],
    [['list', '--limit', '0'], /expected a positive whole number/],
    [['show', 'SNAP_20990101_000000_000_ffff'], /does not exist/],
    [['show', '../../etc/passwd'], /not a snapshot id: "\.\.\/\.\.\/etc\/passwd" \(expected the form SNAP_/],
    [['snapshot', '--transcript', '/nonexistent/t.jsonl'], /transcript not found: \/nonexistent\/t\.jsonl/],
    [['snapshot', '--trigger', 'bogus'], /argument 'bogus' is invalid/],
    [['frobnicate'], /unknown command 'frobnicate'/],
  ])('bad input %j gets a one-line error and a non-zero exit', async (args, message) => {
    const r = await runCli(args, { env: sb.env, cwd: project })
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(message)
  })

  it('without --transcript, discovers the session file and says which one it picked', async () => {
    const encoded = project.replace(/[^A-Za-z0-9]/g, '-')
    const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', encoded)
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'aaaa-1111.jsonl'), await readFile(transcript, 'utf8'))
    const r = await runCli(['snapshot', '--json'], { env: sb.env, cwd: project })
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('picked the most recently written transcript')
    expect(JSON.parse(r.stdout).sessionId).toBe('aaaa-1111')
    const named = await runCli(['snapshot', '--session-id', 'bbbb-2222', '--json'], { env: sb.env, cwd: project })
    expect(named.code).toBe(1)
    expect(named.stderr).toContain('no transcript for session bbbb-2222')
  })

  it('prints help that lists every command', async () => {
    const r = await runCli(['--help'], { env: sb.env })
    expect(r.code).toBe(0)
    for (const cmd of ['snapshot', 'status', 'list', 'show', 'demo']) expect(r.stdout).toContain(cmd)
  })
})

describe('concurrency', () => {
  it('16 snapshot processes at once leave a valid index listing every snapshot', async () => {
    const transcripts: string[] = []
    for (let i = 0; i < 8; i++) {
      const t = join(sb.dir, `s${i}.jsonl`)
      await writeFile(
        t,
        jsonl([
          prompt(`request number ${i} for the project`, { cwd: project }),
          call(`w${i}`, 'Write', { file_path: join(project, `f${i}.ts`), content: 'x\n' }, { type: 'create' }, { cwd: project }),
        ]),
      )
      transcripts.push(t)
    }
    // 8 sessions, each captured twice at the same moment: same-session captures serialise on the session lock.
    const runs = await Promise.all(
      Array.from({ length: 16 }, (_, i) => runCli(['snapshot', '--transcript', transcripts[i % 8]!, '--cwd', project, '--json'], { env: sb.env })),
    )
    const ids = runs.map((r) => {
      expect(r.code, r.stderr).toBe(0)
      return JSON.parse(r.stdout).snapshotId as string
    })
    expect(new Set(ids).size).toBe(16)
    const dir = join(project, '.bookmark')
    const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8'))
    expect(index.snapshots.map((e: { id: string }) => e.id).sort()).toEqual([...ids].sort())
    for (const name of await readdir(join(dir, 'snapshots'))) JSON.parse(await readFile(join(dir, 'snapshots', name), 'utf8'))
    const cursors = join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'cursors')
    for (const name of await readdir(cursors)) {
      expect(name.endsWith('.json'), `leftover ${name}`).toBe(true)
      JSON.parse(await readFile(join(cursors, name), 'utf8'))
    }
    const trails = JSON.parse(await readFile(join(dir, 'trails', 'files.json'), 'utf8'))
    expect(Object.keys(trails.files).sort()).toEqual(Array.from({ length: 8 }, (_, i) => `f${i}.ts`).sort())
    const registry = JSON.parse(await readFile(join(sb.env.BOOKMARK_HOME!, 'registry.json'), 'utf8'))
    expect(registry.entries.map((e: { snapshotId: string }) => e.snapshotId).sort()).toEqual([...ids].sort())
  })
})
