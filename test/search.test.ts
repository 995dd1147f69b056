/**
 * `bookmark index --backfill`, `search` and `get` over the real corpus copied into a fake Claude Code store and a
 * Codex rollout in a fake CODEX_HOME (the sandbox's homes, never the real ones).
 */
import { spawn } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { BIN, type Sandbox, gitProject, runCli, sandbox } from './helpers/cli.js'
import { CORPUS, CORPUS_PRESENT, claudeFiles, claudePath } from './helpers/corpus.js'
import { ALNUM, fake } from './helpers/fake-secrets.js'

const CODEX = join(CORPUS, 'codex', 'codex-0.142.2-spark-model-compacted2-patch-019f03e0.jsonl')
const CODEX_SID = '019f03e0-321f-7eb2-83cc-b54ecd71be23'

/** A corpus file's copy is named after its 8-hex suffix, as a session id. */
const sessionOf = (name: string): string => `${/-([0-9a-f]{8})\.jsonl$/.exec(name)![1]}-0000-4000-8000-000000000000`

async function world(files: string[] = claudeFiles()): Promise<Sandbox & { projects: string }> {
  const sb = await sandbox()
  const projects = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', '-work-proj')
  await mkdir(projects, { recursive: true })
  for (const f of files) await copyFile(claudePath(f), join(projects, `${sessionOf(f)}.jsonl`))
  const codexHome = join(sb.home, '.codex')
  await mkdir(join(codexHome, 'sessions', '2026', '06', '26'), { recursive: true })
  if (existsSync(CODEX)) await copyFile(CODEX, join(codexHome, 'sessions', '2026', '06', '26', 'copied-rollout.jsonl'))
  sb.env.CODEX_HOME = codexHome
  return { ...sb, projects }
}

const cli = (sb: Sandbox, ...args: string[]) => runCli(args, { env: sb.env })
const cliIn = (sb: Sandbox, cwd: string, ...args: string[]) => runCli(args, { env: sb.env, cwd })
const searchJson = async (sb: Sandbox, ...args: string[]): Promise<any[]> => {
  const r = await cli(sb, 'search', ...args, '--json')
  expect(r.code).toBe(0)
  return JSON.parse(r.stdout) as any[]
}
/** The committed events, as a reader sees them: the current segment only up to log.json's commit point. */
const logLines = (sb: Sandbox): string[] => {
  const dir = join(sb.env.BOOKMARK_HOME!, 'memory', 'events')
  const state = JSON.parse(readFileSync(join(sb.env.BOOKMARK_HOME!, 'memory', 'log.json'), 'utf8')) as { segment: number; committed: number }
  return readdirSync(dir).flatMap((f) => {
    const bytes = readFileSync(join(dir, f))
    const upTo = Number.parseInt(f, 10) === state.segment ? bytes.subarray(0, state.committed) : bytes
    return upTo
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '')
  })
}
const ids = (sb: Sandbox): string[] => logLines(sb).map((l) => (JSON.parse(l) as { id: string }).id)
/** The events as another sandbox would hold them too (ids and paths differ between sandboxes). */
const facts = (sb: Sandbox): string[] =>
  logLines(sb)
    .map((l) => JSON.parse(l) as { transcript: string; line: number; kind: string; text: string })
    .map((e) => `${e.transcript.split('/').pop()}|${e.line}|${e.kind}|${e.text}`)
    .sort()

describe.skipIf(!CORPUS_PRESENT)('search over the corpus', () => {
  let sb: Sandbox & { projects: string }
  let events = 0

  beforeAll(async () => {
    sb = await world()
    const r = await cli(sb, 'index', '--backfill')
    expect(r.code).toBe(0)
    // No terminal: one summary, no progress line.
    expect(r.stdout).toMatch(/^Backfill: 39 transcripts, 39 read, (\d+) new events, 0 unreadable lines\.\nIndexed \1 new events\./)
    expect(r.stderr).toBe('')
    events = Number(/(\d+) new events/.exec(r.stdout)![1])
  }, 120_000)

  it('brings back a named commit with its transcript line (provenance)', async () => {
    const hits = await searchJson(sb, 'auto-summarise at commit time', '--kind', 'commit')
    expect(hits[0]).toMatchObject({
      rank: 1,
      kind: 'commit',
      host: 'claude',
      session: sessionOf('cc-2.1.29-pr-link-compact2-mcp-1e0816ef.jsonl'),
      project: '/Users/alex/workspace/cli/.worktrees/alex/test-explain-checkpoint-boundaries',
      line: 612,
    })
    expect(hits[0].snippet).toBe('ebe393e feat(strategy): add auto-summarise at commit time')
    for (const key of ['id', 'ts', 'transcript', 'score']) expect(hits[0]).toHaveProperty(key)
    // The line it points at is the real one: the commit's output is there.
    const line = readFileSync(hits[0].transcript, 'utf8').split('\n')[hits[0].line - 1]!
    expect(line).toContain('[alex/ent-96-auto-summaries ebe393e] feat(strategy): add auto-summarise at commit time')
    const get = await cli(sb, 'get', hits[0].id)
    expect(get.code).toBe(0)
    expect(get.stdout).toContain(`Event ${hits[0].id}: commit (Bash)`)
    expect(get.stdout).toContain(`Read more: ${hits[0].transcript}:612`)
  })

  it('ranks the session that changed config.go first, though its words are everywhere (exact channel)', async () => {
    const exact = await searchJson(sb, 'config.go', '--limit', '5')
    expect(exact.map((h) => h.session.slice(0, 8))).toEqual(Array(5).fill('1e0816ef'))
    const loose = await searchJson(sb, 'config go', '--limit', '10')
    expect(new Set(loose.map((h) => h.session.slice(0, 8))).size).toBeGreaterThan(1)
  })

  it('applies filters before the top-k cut', async () => {
    const top = await searchJson(sb, 'test', '--limit', '3')
    expect(top).toHaveLength(3)
    expect(top.some((h) => h.kind === 'commit')).toBe(false)
    const commits = await searchJson(sb, 'test', '--limit', '3', '--kind', 'commit')
    expect(commits.map((h) => h.kind)).toEqual(['commit', 'commit', 'commit'])
    const project = await searchJson(sb, 'test', '--limit', '50', '--project', 'oh-my-posh')
    expect(project.length).toBeGreaterThan(3)
    // oh-my-posh and its Claude Code worktree (D:\\oh-my-posh\\.claude\\worktrees\\…)
    expect(project.every((h) => /^D:\\oh-my-posh(\\\.claude\\worktrees\\[^\\]+)?$/.test(h.project))).toBe(true)
    const old = await searchJson(sb, 'test', '--before', '2025-01-01')
    expect(old).toEqual([])
  })

  it('lists the newest events holding every word with --recent', async () => {
    const hits = await searchJson(sb, 'fix', 'test', '--recent', '--limit', '5')
    expect(hits.length).toBe(5)
    const times = hits.map((h) => Date.parse(h.ts))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
    const text = new Map(
      logLines(sb)
        .map((l) => JSON.parse(l) as { id: string; text: string })
        .map((e) => [e.id, e.text.toLowerCase()]),
    )
    for (const h of hits) expect(text.get(h.id)).toMatch(/(?=[\s\S]*\bfix)(?=[\s\S]*\btest)/)
  })

  it('reads the Codex rollout under its session_meta id', async () => {
    const hits = await searchJson(sb, 'composite.mdx', '--limit', '3')
    expect(hits[0]).toMatchObject({ host: 'codex', session: CODEX_SID, project: '/home/entity/projects/EntityProcess/agentv' })
  })

  it('says so when nothing matches, and refuses bad flags with exit 1', async () => {
    const none = await cli(sb, 'search', 'qqqzzzxxyy')
    expect(none).toMatchObject({ code: 0, stdout: 'No events match "qqqzzzxxyy" (`bookmark index --status` says what is indexed).\n' })
    const json = await cli(sb, 'search', 'qqqzzzxxyy', '--json')
    expect(json.stdout).toBe('[]\n')
    expect(json.stderr).toContain('No events match')
    const kind = await cli(sb, 'search', 'x', '--kind', 'commits')
    expect(kind.code).toBe(1)
    expect(kind.stderr).toBe(
      'bookmark: --kind takes a comma-separated list of request, reply, command, file, tool, commit, error, subagent, compaction, title, wrapup; got "commits"\n',
    )
    expect((await cli(sb, 'search', 'x', '--since', 'last week')).code).toBe(1)
    expect((await cli(sb, 'get', 'nothex')).code).toBe(1)
  })

  it('orients on a project with no query: newest requests, commits, errors, compactions; worktrees by repo name', async () => {
    const r = await cli(sb, 'search', '--project', 'oh-my-posh', '--json')
    expect(r.code).toBe(0)
    const o = JSON.parse(r.stdout) as { project: string; scope: string; sections: { title: string; hits: any[] }[] }
    expect(o).toMatchObject({ project: 'oh-my-posh', scope: 'project' })
    expect(o.sections.map((s) => s.title)).toEqual(['Latest wrap-up', 'Latest requests', 'Latest commits', 'Latest errors', 'Latest compactions'])
    const [wrapups, requests, commits, errors, compactions] = o.sections.map((s) => s.hits)
    expect(wrapups).toEqual([]) // no wrap-up recorded for it
    // The newest request is in a Claude Code worktree of oh-my-posh (D:\oh-my-posh\.claude\worktrees\…).
    expect(requests![0]).toMatchObject({
      kind: 'request',
      session: sessionOf('cc-2.1.219-windows-hook-nonblocking-error-be2220da.jsonl'),
      line: 90,
      snippet: 'go ahead, fix all four, bundle the DoS ones too and do the allowlist too afterwards',
    })
    expect(requests).toHaveLength(5)
    expect(commits![4]).toMatchObject({ kind: 'commit', line: 876, snippet: 'docs(website): drop the harness references' })
    expect(errors![0]).toMatchObject({ kind: 'error', line: 168 })
    expect(compactions!.every((h) => h.kind === 'compaction')).toBe(true)
    for (const s of o.sections) {
      const times = s.hits.map((h) => Date.parse(h.ts))
      expect([...times].sort((a, b) => b - a)).toEqual(times)
      expect(s.hits.every((h) => h.project === 'D:\\oh-my-posh' || h.project.startsWith('D:\\oh-my-posh\\'))).toBe(true)
    }
    const text = await cli(sb, 'search', '--project', 'oh-my-posh')
    expect(text.stdout.split('\n')[0]).toBe('Project oh-my-posh: the latest of its sessions, newest first (`bookmark get ID` for one in full).')
    expect(text.stdout).toContain('\nLatest commits:\n1. 2026-07-29 06:16  oh-my-posh  commit')
    // `cli` names the repository of /Users/alex/workspace/cli/.worktrees/…: its worktrees' events come too.
    const repo = await searchJson(sb, 'checkpoint', '--project', 'cli', '--limit', '50')
    expect(repo.some((h) => h.project.startsWith('/Users/alex/workspace/cli/.worktrees/'))).toBe(true)
    expect(repo.every((h) => /\/cli(\/\.worktrees\/.+)?$/.test(h.project))).toBe(true)
    expect((await cli(sb, 'search', '--project', 'no-such-project')).stdout).toBe(
      'Nothing indexed for project no-such-project (`bookmark index --status` says what is indexed).\n',
    )
    const noQuery = await cli(sb, 'search')
    expect(noQuery.code).toBe(1)
    expect(noQuery.stderr).toContain('search needs a query')
  })

  it('takes a configured alias for --project, in search, orientation and MCP', async () => {
    const set = await cli(sb, 'config', '--alias', 'posh=D:\\oh-my-posh', '--alias', 'both=cli', '--alias', 'both=D:\\oh-my-posh')
    expect(set.code).toBe(0)
    expect(set.stdout).toContain('alias both: cli, D:\\oh-my-posh\nalias posh: D:\\oh-my-posh')
    const byAlias = await searchJson(sb, 'test', '--limit', '50', '--project', 'posh')
    const byName = await searchJson(sb, 'test', '--limit', '50', '--project', 'oh-my-posh')
    expect(byAlias.map((h) => h.id)).toEqual(byName.map((h) => h.id))
    expect(byAlias.length).toBeGreaterThan(3)
    const both = await searchJson(sb, 'test', '--limit', '100', '--project', 'both')
    expect(new Set(both.map((h) => (h.project.startsWith('D:\\oh-my-posh') ? 'posh' : /\/cli(\/|$)/.test(h.project) ? 'cli' : h.project)))).toEqual(
      new Set(['posh', 'cli']),
    )
    const orient = await cli(sb, 'search', '--project', 'posh')
    expect(orient.stdout.split('\n')[0]).toBe('Project posh: the latest of its sessions, newest first (`bookmark get ID` for one in full).')
    expect(orient.stdout).toContain('go ahead, fix all four, bundle the DoS ones too and do the allowlist too afterwards')
    // Another setting keeps the aliases; --unalias removes one; a bad name is refused.
    expect((await cli(sb, 'config', '--set', 'interval=7')).code).toBe(0)
    const json = JSON.parse((await cli(sb, 'config', '--json')).stdout) as { aliases: Record<string, string[]> }
    expect(json.aliases).toEqual({ both: ['cli', 'D:\\oh-my-posh'], posh: ['D:\\oh-my-posh'] })
    expect((await cli(sb, 'config', '--unalias', 'both')).code).toBe(0)
    expect(await searchJson(sb, 'test', '--project', 'both')).toEqual([])
    const bad = await cli(sb, 'config', '--alias', 'a b=/x')
    expect(bad).toMatchObject({ code: 1 })
    expect(bad.stderr).toContain('--alias takes NAME or NAME=PROJECT')
    expect((await cli(sb, 'config', '--unalias', 'nosuch')).stderr).toContain('no alias "nosuch"')
  })

  it('catches up with new lines before answering, and a rerun adds nothing', async () => {
    const target = join(sb.projects, `${sessionOf('cc-2.1.59-plain-eebd3a1f.jsonl')}.jsonl`)
    const first = readFileSync(target, 'utf8').split('\n')[0]!
    const rec = JSON.parse(first)
    const added = { ...rec, type: 'user', uuid: 'u-new', isSidechain: false, message: { role: 'user', content: 'please rename the flux capacitor module' } }
    appendFileSync(target, `${JSON.stringify(added)}\n`)
    // A transcript that only grew (no hook captured it) is found by the full look, at most LOOK_EVERY_MS after
    // the last one (docs/SEARCH.md): the stamp is aged here instead of waiting.
    const stampFile = join(sb.env.BOOKMARK_HOME!, 'memory', 'index', 'caught-up.json')
    const stamp = JSON.parse(readFileSync(stampFile, 'utf8'))
    writeFileSync(stampFile, JSON.stringify({ ...stamp, lookedAt: stamp.lookedAt - 31_000 }))
    const hits = await searchJson(sb, 'flux capacitor')
    expect(hits[0]).toMatchObject({ kind: 'request', snippet: 'please rename the flux capacitor module' })
    // A new transcript changes its folder: found by the next search at once.
    const fresh = { ...rec, type: 'user', uuid: 'u-newer', isSidechain: false, message: { role: 'user', content: 'tune the warp coil harmonics' } }
    await writeFile(join(sb.projects, 'ffffffff-0000-4000-8000-000000000000.jsonl'), `${JSON.stringify(fresh)}\n`)
    expect((await searchJson(sb, 'warp coil harmonics'))[0]).toMatchObject({ kind: 'request', snippet: 'tune the warp coil harmonics' })
    const again = await cli(sb, 'index', '--backfill')
    expect(again.stdout).toMatch(/, 0 new events,/)
    const all = ids(sb)
    expect(new Set(all).size).toBe(all.length)
    expect(all.length).toBe(events + 2)
  })
})

describe.skipIf(!CORPUS_PRESENT)('the events log', () => {
  const SMALL = ['cc-2.1.29-pr-link-compact2-mcp-1e0816ef.jsonl', 'cc-2.1.59-plain-eebd3a1f.jsonl', 'cc-2.1.14-tool-errors-c64cc478.jsonl']

  it('keeps no secret: indexed text is redacted', async () => {
    const sb = await world([])
    const token = `ghp_${fake(ALNUM, 36)}`
    const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', '-w')
    await mkdir(dir, { recursive: true })
    const line = (n: number, content: string) =>
      JSON.stringify({ type: 'user', uuid: `u${n}`, sessionId: 's1', cwd: '/w/app', timestamp: '2026-01-02T03:04:05Z', message: { role: 'user', content } })
    await writeFile(join(dir, 'aaaaaaaa-0000-4000-8000-000000000000.jsonl'), `${line(1, `deploy with GITHUB_TOKEN=${token} to the staging cluster`)}\n`)
    expect((await cli(sb, 'index', '--backfill')).code).toBe(0)
    const log = logLines(sb).join('\n')
    expect(log).toContain('staging cluster')
    expect(log).not.toContain(token)
    const hits = await searchJson(sb, 'staging cluster')
    expect(hits).toHaveLength(1)
    expect(hits[0].snippet).not.toContain(token)
    expect(hits[0].snippet).toContain('[REDACTED')
  })

  it('skips a torn last line and cuts it off at the next commit', async () => {
    const sb = await world(SMALL)
    expect((await cli(sb, 'index', '--backfill')).code).toBe(0)
    const before = ids(sb).length
    const segment = join(sb.env.BOOKMARK_HOME!, 'memory', 'events', '000000.jsonl')
    appendFileSync(segment, '{"id":"0123456789ab","kind":"request","text":"half a wri')
    const hits = await searchJson(sb, 'auto-summarise at commit time', '--kind', 'commit')
    expect(hits[0].snippet).toBe('ebe393e feat(strategy): add auto-summarise at commit time')
    const rebuilt = await cli(sb, 'index', '--rebuild')
    expect(rebuilt.stdout).toContain(`Indexed ${before} new events.`)
    await appendFile(join(sb.projects, `${sessionOf(SMALL[1]!)}.jsonl`))
    expect((await cli(sb, 'index', '--backfill')).code).toBe(0)
    expect(readFileSync(segment, 'utf8')).not.toContain('half a wri')
    expect(ids(sb).length).toBe(before + 1)
  })

  it('recovers an index build killed before its manifest: every event indexed once, no file of the dead build left', async () => {
    const sb = await world(SMALL)
    expect((await cli(sb, 'index', '--backfill')).code).toBe(0)
    const commit = 'ebe393e feat(strategy): add auto-summarise at commit time'
    const before = await searchJson(sb, 'auto-summarise at commit time', '--kind', 'commit')
    expect(before[0].snippet).toBe(commit)
    const index = join(sb.env.BOOKMARK_HOME!, 'memory', 'index')
    const manifestFile = join(index, 'manifest.json')
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { segments: { file: string; from: unknown }[]; upTo: unknown }
    expect(manifest.segments).toHaveLength(1)
    const piece = manifest.segments[0]!
    // What a first build killed after writing its piece, and another killed while writing one, leave: the manifest of
    // before (nothing indexed), the piece's file unlisted, a segment temp file, and no stamp (written last, at the end).
    writeFileSync(manifestFile, JSON.stringify({ ...manifest, segments: [], upTo: piece.from }))
    rmSync(join(index, 'caught-up.json'))
    const temp = `${piece.file}.4242.0123abcd.tmp`
    writeFileSync(join(index, temp), 'half a segm')

    const after = await searchJson(sb, 'auto-summarise at commit time', '--kind', 'commit')
    expect(after.map((h) => h.id)).toEqual(before.map((h) => h.id))
    const rebuilt = JSON.parse(readFileSync(manifestFile, 'utf8')) as typeof manifest
    expect(rebuilt.upTo).toEqual(manifest.upTo)
    expect(rebuilt.segments).toHaveLength(1)
    expect(rebuilt.segments[0]!.file).not.toBe(piece.file)
    expect(readdirSync(index).filter((f) => f.startsWith('seg-'))).toEqual([rebuilt.segments[0]!.file])
    const status = await cli(sb, 'index', '--status')
    expect(status.code).toBe(0)
    expect(status.stdout).toContain(`Index: ${ids(sb).length} events in 1 segments from `)
    expect(status.stdout).not.toContain('not indexed yet')
  })

  it('resumes a backfill killed midway without a duplicate event', async () => {
    // The whole corpus: a backfill of a few small transcripts can end before the kill.
    const clean = await world()
    await cli(clean, 'index', '--backfill')
    const want = facts(clean)
    expect(new Set(ids(clean)).size).toBe(want.length)

    const sb = await world()
    // A writer that died after its append and before its commit: bytes past the commit point.
    await mkdir(join(sb.env.BOOKMARK_HOME!, 'memory', 'events'), { recursive: true })
    const killed = spawn(process.execPath, [BIN, 'index', '--backfill'], { env: sb.env, stdio: 'ignore' })
    const closed = new Promise((r) => killed.on('close', r))
    await new Promise((r) => setTimeout(r, 350))
    killed.kill('SIGKILL')
    expect(await closed).toBe(null) // ended by the kill, not done (a code of 0)
    const segment = join(sb.env.BOOKMARK_HOME!, 'memory', 'events', '000000.jsonl')
    appendFileSync(segment, `${logLines(clean)[0]}\n{"id":"torn`)
    const r = await cli(sb, 'index', '--backfill')
    expect(r.code).toBe(0)
    expect(facts(sb)).toEqual(want)
    expect(new Set(ids(sb)).size).toBe(want.length)
  }, 60_000)
})

describe('search inside a project', () => {
  it('covers that project with a note, --all widens, outside any project it covers all', async () => {
    const sb = await world([])
    const app = await gitProject(sb, 'app')
    const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', '-w')
    await mkdir(dir, { recursive: true })
    const line = (cwd: string, content: string) =>
      JSON.stringify({ type: 'user', uuid: `u-${content.length}`, sessionId: 's', cwd, timestamp: '2026-01-02T03:04:05Z', message: { role: 'user', content } })
    await writeFile(join(dir, 'aaaaaaaa-0000-4000-8000-000000000000.jsonl'), `${line(app, 'tune the gearbox ratio in app')}\n`)
    await writeFile(join(dir, 'bbbbbbbb-0000-4000-8000-000000000000.jsonl'), `${line('/w/other', 'the gearbox of the other project')}\n`)
    expect((await cli(sb, 'index', '--backfill')).code).toBe(0)

    const inside = await cliIn(sb, join(app, '.git'), 'search', 'gearbox', '--json')
    expect(inside.code).toBe(0)
    expect((JSON.parse(inside.stdout) as any[]).map((h) => h.project)).toEqual([app])
    expect(inside.stderr).toBe(`bookmark: Searching project ${app} (the current one); --all searches every project.\n`)
    const all = await cliIn(sb, app, 'search', 'gearbox', '--all', '--json')
    expect((JSON.parse(all.stdout) as any[]).map((h) => h.project).sort()).toEqual(['/w/other', app].sort())
    expect(all.stderr).toBe('')
    const outside = await searchJson(sb, 'gearbox')
    expect(outside).toHaveLength(2)
    const named = await cliIn(sb, app, 'search', 'gearbox', '--project', 'other', '--json')
    expect((JSON.parse(named.stdout) as any[]).map((h) => h.project)).toEqual(['/w/other'])
    // No query inside a project: orientation on it.
    const orient = await cliIn(sb, app, 'search')
    expect(orient.stdout).toContain(`Project ${app}: the latest of its sessions`)
    expect(orient.stdout).toContain('tune the gearbox ratio in app')
    expect(orient.stdout).not.toContain('the other project')
    const both = await cliIn(sb, app, 'search', 'x', '--all', '--project', 'other')
    expect(both).toMatchObject({ code: 1, stderr: 'bookmark: --project and --all contradict each other: give one\n' })
  })
})

/** Appends one request to a transcript, in its own session's envelope. */
async function appendFile(path: string): Promise<void> {
  const rec = JSON.parse(readFileSync(path, 'utf8').split('\n')[0]!)
  appendFileSync(
    path,
    `${JSON.stringify({ ...rec, type: 'user', uuid: 'u-more', isSidechain: false, message: { role: 'user', content: 'one more request' } })}\n`,
  )
}
