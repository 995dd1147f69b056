/**
 * The hooks' fast path (issue 7): each hook starts from its own bundle with V8's code cache, a capture with
 * nothing new reads the cursor head only and writes nothing, version 1 cursor files still work, and the
 * payload arrives whole however the host's socket delivers it.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs'
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeEach, describe, expect, it } from 'vitest'
import { HOOKS } from '../src/hooks/names.js'
import { type Sandbox, BIN, gitProject, gitRepo, runCli, sandbox } from './helpers/cli.js'
import { REPO_ROOT } from './helpers/corpus.js'
import { stateDir } from './helpers/narrative.js'
import { assistantText, call, jsonl, prompt } from './helpers/jsonl.js'

const DIST = join(REPO_ROOT, 'dist', 'cli')

let sb: Sandbox
let project: string
let transcript: string
beforeEach(async () => {
  sb = await sandbox()
  project = await gitProject(sb)
  transcript = join(sb.dir, 'session.jsonl')
  await writeFile(
    transcript,
    jsonl([
      prompt('Add a parser for the config file'),
      ...call('t1', 'Write', { file_path: join(project, 'src/parse.ts'), content: 'export {}\n' }),
      assistantText('Added src/parse.ts.'),
    ]),
  )
})

const payload = (event: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ session_id: 'S1', transcript_path: transcript, cwd: project, hook_event_name: event, ...extra })
/** A Stop as the host sends it; narrative requests are off so a Stop never writes for them. */
const stop = (extra: Record<string, unknown> = {}) =>
  runCli(['stop'], { env: { ...sb.env, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' }, cwd: project, input: payload('Stop', { stop_hook_active: false, ...extra }) })

/** Every file of the store with its modification time. */
function storeFiles(): Map<string, number> {
  const out = new Map<string, number>()
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (e.isDirectory()) walk(p)
      else out.set(p.slice(project.length + 1), statSync(p).mtimeMs)
    }
  }
  walk(join(project, '.bookmark'))
  return out
}

describe('bundles', () => {
  it('bin/bookmark.cjs knows the same hooks as the command table, and each has its own bundle', () => {
    const bin = readFileSync(BIN, 'utf8')
    const listed = /const HOOKS = \[([^\]]*)\]/
      .exec(bin)?.[1]
      ?.match(/'([a-z]+)'/g)
      ?.map((s) => s.slice(1, -1))
    expect([...(listed ?? [])].sort()).toEqual(HOOKS.map((h) => h.name).sort())
    for (const h of HOOKS) expect(existsSync(join(DIST, `hook-${h.name}.cjs`)), h.name).toBe(true)
  })

  it('a hook with an empty payload finds its folder’s newest transcript (fast-glob, required by a hook chunk when needed)', async () => {
    const dir = join(sb.env.CLAUDE_CONFIG_DIR!, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'))
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'S9.jsonl'), readFileSync(transcript))
    const r = await runCli(['stop'], { env: { ...sb.env, BOOKMARK_MAX_NARRATIVE_BLOCKS: '0' }, cwd: project, input: '' })
    expect(r).toMatchObject({ code: 0, stdout: '' })
    expect(r.stderr).toContain('empty hook payload')
    expect(readdirSync(join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'cursors'))).toContain('S9.json')
  })

  it('a hook whose bundle cannot be loaded (an unbuilt install) still exits 0, saying why on stderr', async () => {
    const pkg = join(sb.dir, 'unbuilt')
    mkdirSync(join(pkg, 'bin'), { recursive: true })
    for (const f of ['bookmark.cjs', 'package.json']) writeFileSync(join(pkg, 'bin', f), readFileSync(join(REPO_ROOT, 'bin', f)))
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(pkg, 'bin', 'bookmark.cjs'), 'stop'], { env: sb.env, cwd: project, stdio: ['pipe', 'pipe', 'pipe'] })
      let stdout = ''
      let stderr = ''
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
      child.on('close', (code) => resolve({ code, stdout, stderr }))
      child.stdin.end(payload('Stop'))
    })
    expect(r).toMatchObject({ code: 0, stdout: '' })
    expect(r.stderr).toMatch(/^bookmark: stop hook could not start: ENOENT/)
  })

  it('the check and stop bundles leave the extraction engine and the redactor to chunks loaded on demand', () => {
    for (const name of ['check', 'stop']) {
      const text = readFileSync(join(DIST, `hook-${name}.cjs`), 'utf8')
      expect(text, name).not.toMatch(/function applyEntry\(/)
      expect(text, name).not.toMatch(/function redactDeep\(/)
      expect(text, name).not.toMatch(/require\("node:fs\/promises"\)/)
    }
  })

  it('a hook entry loads no chunk file as it starts: the chunks it always needs are inside it (scripts/bundle.mjs)', () => {
    for (const h of HOOKS) {
      const text = readFileSync(join(DIST, `hook-${h.name}.cjs`), 'utf8')
      expect(text, h.name).not.toMatch(/^const \w+ = require\("\.\//m)
      // The entry's own code keeps its source map: the line that starts the hook maps to its source.
      const map = JSON.parse(readFileSync(join(DIST, `hook-${h.name}.cjs.map`), 'utf8')) as { sources: string[]; mappings: string }
      const line = text.split('\n').findIndex((l) => l.startsWith('async function runInstalledHook('))
      expect(line, h.name).toBeGreaterThan(0)
      expect(map.sources[sourceAt(map.mappings, line)], h.name).toMatch(/src\/cli\/hook-main\.ts$/)
    }
  })

  it('every bundle file is ASCII: one non-ASCII character makes V8 decode, copy and hash the whole file as two-byte text', () => {
    const files = readdirSync(DIST).filter((f) => f.endsWith('.cjs'))
    expect(files.length).toBeGreaterThan(8)
    for (const f of files) expect(readFileSync(join(DIST, f), 'latin1'), f).toMatch(/^[\x00-\x7f]*$/)
  })

  it("a Stop's capture is one chunk file (stop.turn), which no host's chunk requires: another host's Stop with nothing new never loads it", () => {
    const stop = readdirSync(DIST).filter((f) => /^stop\..+\.cjs$/.test(f))
    expect(stop.filter((f) => f.startsWith('stop.turn-'))).toHaveLength(1)
    for (const f of stop.filter((f) => f.startsWith('stop.host-'))) expect(readFileSync(join(DIST, f), 'utf8'), f).not.toMatch(/require\("\.\/stop\.turn-/)
    const entry = readFileSync(join(DIST, 'hook-stop.cjs'), 'utf8')
    expect(entry).not.toMatch(/^const \w+ = require\("\.\/stop\.turn-/m)
  })

  it('no file of a hook build calls import(): bin/bookmark.cjs compiles them as plain scripts, where import() throws', () => {
    const files = readdirSync(DIST).filter((f) => f.endsWith('.cjs') && (/^hook-/.test(f) || HOOKS.some((h) => f.startsWith(`${h.name}.`))))
    expect(files.length).toBeGreaterThan(8)
    for (const f of files) expect(readFileSync(join(DIST, f), 'utf8'), f).not.toMatch(/\bimport\(/)
  })

  it('a split git index (git itself is asked whether the handoff is tracked) works inside a hook', async () => {
    await rm(join(project, '.git'), { recursive: true })
    await gitRepo(project)
    execFileSync('git', ['update-index', '--split-index'], { cwd: project })
    const r = await stop({ last_assistant_message: 'Added src/parse.ts.' })
    expect(r.stderr).toBe('')
    await writeFile(join(project, '.bookmark', 'bookmark.context.md'), '<!-- BOOKMARK_IDENTITY\nscope: repo\n-->\n# Handoff\n\n## Task\nx\n')
    await appendFile(transcript, jsonl([prompt('next'), assistantText('Done.')]))
    const again = await stop({ last_assistant_message: 'Done.' })
    expect(again).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(readFileSync(join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'narrative.state.json'), 'utf8')).value).toMatchObject({
      exists: true,
      tracked: false,
    })
  })
})

describe('code cache', () => {
  const cacheDir = (): string => join(sb.env.BOOKMARK_HOME!, 'cache')

  it('a capturing Stop loads a handful of files: its entry, the capture chunk and the few chunks shared with other paths', async () => {
    expect((await stop()).code).toBe(0)
    // Each bundle file a hook loads gets its code cache (bin/bookmark.cjs).
    const loaded = readdirSync(cacheDir()).filter((f) => f.endsWith('.v8c'))
    expect(loaded.some((f) => f.startsWith('stop.turn-'))).toBe(true)
    // Claude Code's capture loads neither Codex's nor Gemini's host (src/hosts/load.ts).
    expect(loaded.filter((f) => f.startsWith('stop.host-'))).toEqual([])
    expect(loaded.length).toBeLessThanOrEqual(6)
  })

  it('temp files a killed hook left in it are swept by a later tidy capture once 10 minutes old, caches of other builds once a week old', async () => {
    expect((await stop()).code).toBe(0)
    const old = join(cacheDir(), 'hook-stop.cjs.1-2-3-v20-x64.v8c.4242.0123abcd.tmp')
    const young = join(cacheDir(), 'hook-stop.cjs.1-2-3-v20-x64.v8c.4343.0123abcd.tmp')
    for (const f of [old, young]) writeFileSync(f, 'partial')
    const aged = (Date.now() - 11 * 60_000) / 1000
    utimesSync(old, aged, aged)
    // Caches of bundle files this install does not have (an earlier build's chunk names) go once a week old.
    const otherBuild = join(cacheDir(), 'stop.fold-AbCdEfGh.cjs.117645-1796003417658-5308534-v20.20.2-x64.v8c')
    const otherBuildNew = join(cacheDir(), 'stop.fold-HgFeDcBa.cjs.117645-1796003417658-5308535-v20.20.2-x64.v8c')
    const ours = join(cacheDir(), 'hook-stop.cjs.1-2-3-v20.20.2-x64.v8c')
    for (const f of [otherBuild, otherBuildNew, ours]) writeFileSync(f, 'cache')
    const week = (Date.now() - 8 * 24 * 3600_000) / 1000
    for (const f of [otherBuild, ours]) utimesSync(f, week, week)
    const r = await runCli(['snapshot', '--transcript', transcript, '--cwd', project, '--json'], { env: sb.env, cwd: project })
    expect(r.code, r.stderr).toBe(0)
    expect(existsSync(old)).toBe(false)
    expect(existsSync(young)).toBe(true)
    expect(existsSync(otherBuild)).toBe(false)
    expect(existsSync(otherBuildNew)).toBe(true)
    expect(existsSync(ours)).toBe(true) // its bundle file is here: the loader replaces it when it writes its own
  })

  it('is written privately by the first three runs, each adding the code its run compiled, then only read', async () => {
    const entry = (): { name: string; runs: number; size: number; mtime: number } => {
      const name = readdirSync(cacheDir()).find((f) => /^hook-stop\.cjs\..+\.v8c$/.test(f))!
      const p = join(cacheDir(), name)
      return { name, runs: readFileSync(p)[0]!, size: statSync(p).size, mtime: statSync(p).mtimeMs }
    }
    // A first run on a short path: its payload names a folder that does not exist, so the hook stops early.
    const early = await runCli(['stop'], { env: sb.env, cwd: project, input: payload('Stop', { cwd: join(sb.dir, 'gone') }) })
    expect(early.stderr).toMatch(/does not exist: nothing to do/)
    const first = entry()
    expect(first.runs).toBe(1)
    expect(lstatSync(cacheDir()).mode & 0o777).toBe(0o700)
    for (const f of readdirSync(cacheDir())) expect(lstatSync(join(cacheDir(), f)).mode & 0o777, f).toBe(0o600)
    // A capturing Stop compiles much more: the cache grows by it.
    expect((await stop()).stderr).toBe('')
    const second = entry()
    expect(second).toMatchObject({ name: first.name, runs: 2 })
    expect(second.size).toBeGreaterThan(first.size + 1000)
    expect((await stop()).stderr).toBe('')
    expect(entry().runs).toBe(3)
    const third = entry()
    const again = await stop()
    expect(again).toMatchObject({ code: 0, stderr: '' })
    expect(entry()).toEqual(third)
    expect(readdirSync(cacheDir()).filter((f) => f.startsWith('hook-stop.cjs.'))).toEqual([third.name])
  })

  it('a damaged cache is compiled past and replaced; a cache folder that is a link is not used; BOOKMARK_CODE_CACHE=0 makes none', async () => {
    expect((await stop()).code).toBe(0)
    const entry = readdirSync(cacheDir()).find((f) => f.startsWith('hook-stop.cjs.'))!
    for (const damaged of ['not a V8 cache', '\u0002not a V8 cache']) {
      writeFileSync(join(cacheDir(), entry), damaged)
      const r = await stop()
      expect(r.code).toBe(0)
      expect(r.stderr).toBe('')
      expect(readFileSync(join(cacheDir(), entry))[0]).toBe(1)
    }

    await rm(cacheDir(), { recursive: true })
    const elsewhere = join(sb.dir, 'elsewhere')
    mkdirSync(elsewhere)
    symlinkSync(elsewhere, cacheDir())
    expect((await stop()).code).toBe(0)
    expect(readdirSync(elsewhere)).toEqual([])

    await rm(cacheDir())
    const off = await runCli(['stop'], { env: { ...sb.env, BOOKMARK_CODE_CACHE: '0' }, cwd: project, input: payload('Stop', { stop_hook_active: true }) })
    expect(off.code).toBe(0)
    expect(existsSync(cacheDir())).toBe(false)
  })

  it('is part of the bookmark home that uninstall --purge deletes', async () => {
    expect((await runCli(['setup'], { env: sb.env, cwd: project })).code).toBe(0)
    expect((await stop()).code).toBe(0)
    expect(existsSync(cacheDir())).toBe(true)
    const r = await runCli(['uninstall', '--purge', '--yes'], { env: sb.env, cwd: project })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(existsSync(sb.env.BOOKMARK_HOME!)).toBe(false)
    // A command other than a hook uses the folder only when it is there: a purge twice, --help, leave no home.
    expect((await runCli(['uninstall', '--purge', '--yes'], { env: sb.env, cwd: project })).code).toBe(0)
    expect((await runCli(['--help'], { env: sb.env, cwd: project })).code).toBe(0)
    expect(existsSync(sb.env.BOOKMARK_HOME!)).toBe(false)
  })

  it('serves the CLI bundle too, once a hook has made the folder', async () => {
    expect((await runCli(['--version'], { env: sb.env, cwd: project })).code).toBe(0)
    expect(existsSync(cacheDir())).toBe(false)
    expect((await stop()).code).toBe(0)
    expect((await runCli(['--version'], { env: sb.env, cwd: project })).code).toBe(0)
    expect(readdirSync(cacheDir()).some((f) => /^bookmark\.cjs\..+\.v8c$/.test(f))).toBe(true)
  })
})

describe('a capture with nothing new', () => {
  it('writes nothing at all, and reads no transcript bytes', async () => {
    expect((await stop()).code).toBe(0)
    const head = JSON.parse(await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'cursors', 'S1.json'), 'utf8'))
    expect(head).toMatchObject({ version: 2, transcript, captures: 1 })
    expect(head.work.files).toHaveLength(1)
    expect(head.work.prompts).toHaveLength(1)
    expect(head).not.toHaveProperty('state')
    const state = JSON.parse(await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'cursors', 'S1.state.json'), 'utf8'))
    expect(state.stateId).toBe(head.stateId)

    const before = storeFiles()
    const again = await stop({ last_assistant_message: 'Added src/parse.ts.' })
    expect(again).toMatchObject({ code: 0, stdout: '' })
    expect(storeFiles()).toEqual(before)

    const snap = await runCli(['snapshot', '--transcript', transcript, '--session-id', 'S1', '--cwd', project, '--trigger', 'stop', '--json'], {
      env: sb.env,
      cwd: project,
    })
    expect(JSON.parse(snap.stdout)).toMatchObject({ written: false, reason: 'no new activity since the last capture', stats: { bytesRead: 0 } })
  })

  it('is told from the transcript’s stamp alone while the file is untouched; a file rewritten to the same length is read again', async () => {
    expect((await stop()).code).toBe(0)
    const headPath = join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'cursors', 'S1.json')
    const head = JSON.parse(await readFile(headPath, 'utf8'))
    const s = statSync(transcript)
    expect(head.transcriptStamp).toEqual([s.size, s.mtimeMs, s.ctimeMs, s.ino])
    expect(head.cursor.offset).toBe(s.size)
    // The bytes kept in the cursor are not read while the stamp holds: spoiled, they change nothing.
    await writeFile(headPath, JSON.stringify({ ...head, cursor: { ...head.cursor, tail: head.cursor.tail.replace(/:.*/, ':0000000000000000') } }))
    const before = storeFiles()
    expect(await stop({ last_assistant_message: 'Added src/parse.ts.' })).toMatchObject({ code: 0, stdout: '' })
    expect(storeFiles()).toEqual(before)
    // Rewritten in place to the same length: the stamp differs, the bytes are compared, and the capture reads it all again.
    await writeFile(headPath, JSON.stringify(head))
    const bytes = readFileSync(transcript)
    let at = bytes.length - 2 // a digit near the end (of a uuid or a time)
    while (at > 0 && !(bytes[at]! >= 0x30 && bytes[at]! <= 0x39)) at--
    expect(at).toBeGreaterThan(bytes.length - 64)
    bytes[at] = bytes[at] === 0x30 ? 0x31 : 0x30
    await writeFile(transcript, bytes)
    expect(statSync(transcript).size).toBe(s.size)
    const r = await runCli(['snapshot', '--transcript', transcript, '--session-id', 'S1', '--cwd', project, '--trigger', 'stop', '--json'], {
      env: sb.env,
      cwd: project,
    })
    expect(JSON.parse(r.stdout)).toMatchObject({ written: true, stats: { restarted: true, bytesRead: s.size } })
    // Appended to after the read (the stamp is taken right after it): no stamp is kept for a file longer than the cursor.
    await writeFile(headPath, JSON.stringify({ ...head, transcriptStamp: undefined }))
    await appendFile(transcript, jsonl([prompt('And a writer')]))
    expect((await stop()).code).toBe(0)
    const grown = JSON.parse(await readFile(headPath, 'utf8'))
    const now = statSync(transcript)
    expect(grown.transcriptStamp).toEqual([now.size, now.mtimeMs, now.ctimeMs, now.ino])
  })

  it('a new Stop message, a grown transcript, or a state of another capture means a real capture', async () => {
    expect((await stop()).code).toBe(0)
    const snapshots = (): number => readdirSync(join(project, '.bookmark', 'snapshots')).length
    expect(snapshots()).toBe(1)
    await stop({ last_assistant_message: 'A reply the transcript does not have yet.' })
    expect(snapshots()).toBe(2)
    await appendFile(transcript, jsonl([prompt('Now add tests for the parser')]))
    await stop()
    expect(snapshots()).toBe(3)
    // A head whose state file belongs to another capture: read again from the start, nothing lost.
    const statePath = join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'cursors', 'S1.state.json')
    const st = JSON.parse(await readFile(statePath, 'utf8'))
    await writeFile(statePath, JSON.stringify({ ...st, stateId: 'someone-else' }))
    await appendFile(transcript, jsonl([assistantText('Tests next.')]))
    const r = await runCli(['snapshot', '--transcript', transcript, '--session-id', 'S1', '--cwd', project, '--trigger', 'stop', '--json'], {
      env: sb.env,
      cwd: project,
    })
    const out = JSON.parse(r.stdout)
    expect(out.notes.join(' ')).toContain('belongs to another capture')
    expect(out.stats.restarted).toBe(false)
    expect(out.stats.bytesRead).toBe(readFileSync(transcript).length)
  })

  it('a long reply, or one holding a secret, sent again by a Stop is recognised as recorded; a new one is stored redacted', async () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`
    const long = `Done. ${'The parser now reads every section of the file. '.repeat(120)}Use ${token} for the API.`
    await appendFile(transcript, jsonl([assistantText(long)]))
    expect((await stop({ last_assistant_message: long })).code).toBe(0)
    const snapshots = (): number => readdirSync(join(project, '.bookmark', 'snapshots')).length
    expect(snapshots()).toBe(1)
    const before = storeFiles()
    expect((await stop({ last_assistant_message: long })).code).toBe(0)
    expect(storeFiles()).toEqual(before)

    const fresh = `A reply the transcript lacks, with ${token} in it.`
    expect((await stop({ last_assistant_message: fresh })).code).toBe(0)
    expect(snapshots()).toBe(2)
    const head = await readFile(join(await stateDir(sb.env.BOOKMARK_HOME!, project), 'cursors', 'S1.json'), 'utf8')
    expect(JSON.parse(head).lastHookMessage).toMatch(/^A reply the transcript lacks, with \[REDACTED:github-token\] in it\.$/)
    expect(head).not.toContain(token)
    const again = storeFiles()
    expect((await stop({ last_assistant_message: fresh })).code).toBe(0)
    expect(storeFiles()).toEqual(again)
  })
})

describe('the payload on a socket', () => {
  it('arrives whole when the host writes it in pieces, slowly', async () => {
    await stop()
    const text = payload('SessionStart', { source: 'startup', session_id: 'S2' })
    const child = spawn(process.execPath, [BIN, 'restore'], { env: sb.env, cwd: project, stdio: ['pipe', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const done = new Promise<number | null>((resolve) => child.on('close', resolve))
    for (let i = 0; i < text.length; i += 40) {
      child.stdin.write(text.slice(i, i + 40))
      await new Promise((r) => setTimeout(r, 15))
    }
    child.stdin.end()
    expect(await done).toBe(0)
    expect(JSON.parse(stdout).hookSpecificOutput.additionalContext).toContain('Add a parser for the config file')
    expect(stderr).toBe('') // node:wasi, which switches the socket to non-blocking, is experimental and would say so
  })

  it('is read with public Node APIs only (no process.binding)', () => {
    for (const h of HOOKS) expect(readFileSync(join(DIST, `hook-${h.name}.cjs`), 'utf8'), h.name).not.toContain('process.binding')
  })
})

/** The source index of the first mapping on generated line `line` (0-based) of a source map's `mappings`. */
function sourceAt(mappings: string, line: number): number {
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  let source = 0
  const lines = mappings.split(';')
  for (let l = 0; l <= line; l++) {
    for (const segment of lines[l]!.split(',').filter(Boolean)) {
      const values: number[] = []
      let value = 0
      let shift = 0
      for (const ch of segment) {
        const digit = B64.indexOf(ch)
        value += (digit & 31) << shift
        if (digit & 32) shift += 5
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1)
          value = 0
          shift = 0
        }
      }
      if (values.length > 1) source += values[1]!
      if (l === line) return source
    }
  }
  return -1
}
