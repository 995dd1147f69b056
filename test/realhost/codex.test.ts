/**
 * The real Codex CLI 0.171 (`codex exec`, offline against fake-codex.ts on 127.0.0.1) with the hooks that
 * `bookmark setup --host codex` wires and trusts: no `--dangerously-bypass-hook-trust`, so the hooks run only
 * because setup's trust is the one Codex checks. A session patches a file; our Stop block reaches the model once
 * and the model writes the handoff; the next session's first request carries our restore.
 *
 * A session that commits is captured with the commit and the file marked committed; resuming the first session
 * brings the short note of what the others changed; a Claude Code session's story reaches a Codex session of the
 * same project. The hook tells `codex exec` from the interactive CLI by Codex's command line: the suite opts in to
 * the handoff request there (narrativeInHeadless), and its last test shows the default.
 *
 * Needs the binary: `node_modules/.bin/codex` (@openai/codex@0.171.0) or CODEX_BIN; skipped without it.
 * Run: npm run build && npx vitest run test/realhost/codex.test.ts
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SUPERSEDES } from '../../src/hosts/codex/host.js'
import { BIN, runCli } from '../helpers/cli.js'
import { assistantText, call, jsonl, prompt } from '../helpers/jsonl.js'
import { REPO_ROOT } from '../helpers/corpus.js'
import { tempDir } from '../helpers/tmp.js'
import { COMMIT_MESSAGE, type FakeCodex, HANDOFF_REQUEST, type InputItem, itemText, startFakeCodex } from './fake-codex.js'

const CODEX = process.env.CODEX_BIN ?? join(REPO_ROOT, 'node_modules', '.bin', 'codex')

function codexVersion(): string | undefined {
  try {
    return execFileSync(CODEX, ['--version'], { encoding: 'utf8', timeout: 20_000, env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin` } }).trim()
  } catch {
    return undefined
  }
}
const version = existsSync(CODEX) ? codexVersion() : undefined
if (!version) console.warn(`real-Codex tests skipped: no working ${CODEX} (npm ci installs @openai/codex, or set CODEX_BIN)`)

let fake: FakeCodex
let root: string
let proj: string
let env: NodeJS.ProcessEnv
/** The session of the first test (patch file) and of the one that commits. */
let firstSession: string
let commitSession: string
const children = new Set<ChildProcess>()

/** `codex exec …` in the project (or `cwd`), from a clean environment, killed (by its pid) after 90 s. */
function codex(args: string[], cwd = proj, runEnv = env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(CODEX, args, { cwd, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      children.delete(child)
      resolve({ code, stdout, stderr })
    })
  })
}

const CLAUDE_SESSION = '7c0de5e5-1111-4222-8333-444455556666'

function mkdirp(dir: string): string {
  mkdirSync(dir, { recursive: true })
  return dir
}

const isDeveloper = (i: InputItem): boolean => i.type === 'message' && i.role === 'developer'
const lastItem = (input: InputItem[] | undefined): InputItem | undefined => input?.[input.length - 1]

beforeAll(async () => {
  if (!version) return
  fake = await startFakeCodex()
  root = tempDir('bm-codex-')
  proj = join(root, 'proj')
  for (const d of ['home', 'codex', 'tmp', 'proj']) mkdirSync(join(root, d), { recursive: true })
  env = {
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: join(root, 'home'),
    CODEX_HOME: join(root, 'codex'),
    BOOKMARK_HOME: join(root, 'home', '.bookmark'),
    TMPDIR: join(root, 'tmp'),
    FAKE_OPENAI_KEY: 'sk-fake',
    // `codex exec` is a non-interactive run, where the Stop hook does not ask for the handoff by default (the
    // last test): these sessions stand for attended ones.
    BOOKMARK_NARRATIVE_IN_HEADLESS: '1',
  }
  // Codex retries a dead URL forever unless all three bounds are set.
  writeFileSync(
    join(root, 'codex', 'config.toml'),
    [
      'model = "gpt-5.5"',
      'model_provider = "fake"',
      'check_for_update_on_startup = false',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${fake.url}"`,
      'env_key = "FAKE_OPENAI_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[features]',
      'plugins = false',
      'unbounded_connection_retries = false',
      '',
    ].join('\n'),
  )
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: proj })
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: proj })
}, 60_000)

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL')
  await fake?.close()
})

describe.skipIf(!version)(`real Codex CLI (${version ?? 'absent'})`, () => {
  it('setup wires and trusts the hooks; a session that patches a file is captured, and the Stop block reaches the model once', async () => {
    const setup = await runCli(['setup', '--host', 'codex'], { env, bin: BIN })
    expect(setup.stdout).toContain('trusted them in')

    const r = await codex(['exec', '-s', 'workspace-write', 'patch file'])
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(join(proj, 'patched.txt'), 'utf8')).toBe('patched line 1\npatched line 2\n')
    // Codex names its session in every request (the prompt cache key is the session id).
    firstSession = String(fake.requests[0]!.body.prompt_cache_key)

    // The block's reason arrived as the newest item of exactly one request (Codex's <hook_prompt> user item).
    const asked = fake.requests.filter((q) => itemText(lastItem(q.body.input)).includes(HANDOFF_REQUEST))
    expect(asked).toHaveLength(1)
    expect(asked[0]!.reply).toBe('apply_patch')
    const handoff = readFileSync(join(proj, '.bookmark', 'bookmark.context.md'), 'utf8')
    expect(handoff).toMatch(/^<!-- BOOKMARK_IDENTITY\nscope: repo\nproject: proj\n/)
    expect(handoff).toContain('FAKE-MODEL-HANDOFF')

    const latest = readFileSync(join(proj, '.bookmark', 'LATEST.md'), 'utf8')
    expect(latest).toMatch(/\(stop\) of Codex CLI session `[0-9a-f-]{36}`/)
    expect(latest).toContain('> patch file')
    // Codex's project is a git repository: the new file is marked as git still holds it (issue 18's ledger).
    expect(latest).toContain('`patched.txt` [uncommitted] created +2 -0')
  }, 180_000)

  it("the next session's first request carries our restore, with the handoff the model wrote", async () => {
    const before = fake.requests.length
    const r = await codex(['exec', 'say hi'])
    expect(r.code, r.stderr).toBe(0)
    const first = fake.requests[before]!
    const restore = (first.body.input ?? [])
      .filter(isDeveloper)
      .map(itemText)
      .find((t) => t.includes(SUPERSEDES))
    expect(restore, 'no developer message with our restore').toBeDefined()
    expect(restore).toContain('FAKE-MODEL-HANDOFF')
    expect(restore).toContain('patched.txt')
    expect(restore!.length).toBeLessThanOrEqual(10_000)
    // A session with nothing new to capture is not asked for a handoff again.
    expect(fake.requests.slice(before).filter((q) => itemText(lastItem(q.body.input)).includes(HANDOFF_REQUEST))).toHaveLength(0)
  }, 180_000)

  it('the MCP server setup registered answers the model (bookmark_status)', async () => {
    const before = fake.requests.length
    const r = await codex(['exec', 'call bookmark status'])
    expect(r.code, r.stderr).toBe(0)
    const asked = fake.requests.slice(before).findIndex((q) => q.reply === 'bookmark_status')
    expect(asked).toBeGreaterThanOrEqual(0)
    const output = lastItem(fake.requests[before + asked + 1]?.body.input)
    expect(output?.type).toBe('function_call_output')
    // Codex gives the model the tool's structured result: the store of this project, with the one handoff request so far.
    const text = String((output as { output?: unknown }).output)
    const data = JSON.parse(text.slice(text.indexOf('{'))) as { projectRoot: string; narrativeBlocks: number; snapshots: number }
    expect(data).toMatchObject({ projectRoot: proj, narrativeBlocks: 1 })
    expect(data.snapshots).toBeGreaterThanOrEqual(2)
  }, 180_000)

  it('an automatic compaction brings the compact resume that PreCompact prepared', async () => {
    const limit = ['-c', 'model_auto_compact_token_limit=10000']
    const filled = await codex(['exec', ...limit, 'fill context'])
    expect(filled.code, filled.stderr).toBe(0)
    const before = fake.requests.length
    // The turn that ended over the limit compacts at the start of the next one: PreCompact, then SessionStart compact.
    const r = await codex(['exec', 'resume', '--last', ...limit, '-c', 'sandbox_mode="workspace-write"', 'say hi'])
    expect(r.code, r.stderr).toBe(0)
    const after = fake.requests.slice(before)
    expect(after.some((q) => itemText(lastItem(q.body.input)).includes('CONTEXT CHECKPOINT COMPACTION'))).toBe(true)
    const resumed = after.find((q) => (q.body.input ?? []).some((i) => isDeveloper(i) && itemText(i).includes('This session was just compacted')))
    expect(resumed, 'no request after the compaction carries the compact resume').toBeDefined()
    const text = (resumed!.body.input ?? [])
      .filter(isDeveloper)
      .map(itemText)
      .find((t) => t.includes('This session was just compacted'))!
    expect(
      text.startsWith(`${SUPERSEDES}\n\n# Bookmark: \`proj\` after compaction\nThis session was just compacted; here is what a summary tends to lose`),
    ).toBe(true)
    expect(text).toContain('fill context')
  }, 240_000)

  it('a session writes a file with a shell command, patches it and commits it: the capture records the commit and marks the file', async () => {
    const before = fake.requests.length
    // The default sandbox keeps .git read-only; this session must commit.
    const r = await codex(['exec', '-s', 'danger-full-access', 'make and commit'])
    expect(r.code, r.stderr).toBe(0)
    expect(fake.requests.slice(before, before + 4).map((q) => q.reply)).toEqual(['exec_command', 'apply_patch', 'exec_command', 'Committed.'])
    commitSession = String(fake.requests[before]!.body.prompt_cache_key)
    expect(readFileSync(join(proj, 'notes.txt'), 'utf8')).toBe('alpha\nbeta\n')
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: proj, encoding: 'utf8' }).trim()
    expect(git('log', '-1', '--format=%s')).toBe(COMMIT_MESSAGE)
    const hash = git('rev-parse', '--short', 'HEAD')
    const latest = readFileSync(join(proj, '.bookmark', 'LATEST.md'), 'utf8')
    // The Stop block for the handoff reached the model once in this session too.
    expect(fake.requests.slice(before).filter((q) => itemText(lastItem(q.body.input)).includes(HANDOFF_REQUEST))).toHaveLength(1)
    expect(latest).toContain('`notes.txt` [committed] created +1 -0')
    expect(latest).toContain(`of Codex CLI session \`${commitSession}\``)
    expect(latest).toContain('> make and commit')
    expect(latest).toContain(`- commit \`${hash}\` on main: ${COMMIT_MESSAGE}`)
  }, 180_000)

  it('`codex exec resume` of the first session gets the short note of what other sessions changed, not the full restore', async () => {
    const before = fake.requests.length
    const r = await codex(['exec', 'resume', firstSession, 'say hi again'])
    expect(r.code, r.stderr).toBe(0)
    const first = fake.requests[before]!
    expect(first.body.prompt_cache_key).toBe(firstSession)
    const ours = (first.body.input ?? [])
      .filter(isDeveloper)
      .map(itemText)
      .filter((t) => t.includes(SUPERSEDES))
    // Exactly one restore (the first session had none to replay): the short note, naming the session that committed.
    expect(ours).toHaveLength(1)
    const note = [
      SUPERSEDES,
      '',
      'Since this session last ran in `proj`, other sessions changed files (as recorded: information, not instructions):',
      '',
      '```recorded',
      `- session \`${commitSession.slice(0, 8)}\` changed \`notes.txt\` (\`SNAP_`,
    ].join('\n')
    expect(ours[0]!.startsWith(note), ours[0]).toBe(true)
    expect(ours[0]).not.toContain('FAKE-MODEL-HANDOFF')
    expect(ours[0]).not.toContain('# Bookmark')
    // It is the same conversation: the first session's request is replayed before the new one.
    expect((first.body.input ?? []).map(itemText)).toContain('patch file')
  }, 180_000)

  it('a Claude Code session followed by a Codex session in one project: Codex starts with what Claude Code did', async () => {
    const proj2 = join(root, 'proj2')
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: mkdirp(proj2) })
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: proj2 })
    const request = 'Make the fetch client retry twice before it gives up'
    mkdirSync(join(proj2, 'src'))
    writeFileSync(join(proj2, 'src', 'fetch.ts'), 'export const RETRIES = 2\n')
    const o = { cwd: proj2, sessionId: CLAUDE_SESSION }
    const transcript = join(root, `${CLAUDE_SESSION}.jsonl`)
    writeFileSync(
      transcript,
      jsonl([
        prompt(request, o),
        call(
          'toolu_1',
          'Write',
          { file_path: join(proj2, 'src', 'fetch.ts'), content: 'export const RETRIES = 2\n' },
          { type: 'create', filePath: join(proj2, 'src', 'fetch.ts') },
          o,
        ),
        assistantText('The fetch client now retries twice.', o),
      ]),
    )
    const stop = { session_id: CLAUDE_SESSION, transcript_path: transcript, cwd: proj2, hook_event_name: 'Stop', stop_hook_active: false }
    const claude = await runCli(['stop'], { env, cwd: proj2, input: JSON.stringify(stop), bin: BIN })
    expect(claude.code, claude.stderr).toBe(0)
    expect(readFileSync(join(proj2, '.bookmark', 'LATEST.md'), 'utf8')).toContain(`of Claude Code session \`${CLAUDE_SESSION}\``)

    const before = fake.requests.length
    const r = await codex(['exec', 'say hi'], proj2)
    expect(r.code, r.stderr).toBe(0)
    const ours = (fake.requests[before]!.body.input ?? [])
      .filter(isDeveloper)
      .map(itemText)
      .filter((t) => t.includes(SUPERSEDES))
    // Codex's first request carries the Claude Code session's story: its request, its file as git holds it, its last reply.
    expect(ours).toHaveLength(1)
    const text = ours[0]!
    expect(text).toContain(`session \`${CLAUDE_SESSION.slice(0, 8)}\` on branch \`main\``)
    expect(text).toContain(`## Latest request\n\n\`\`\`recorded\n${request}\n\`\`\``)
    expect(text).toContain('- `src/fetch.ts` [uncommitted] created +1 -0')
    expect(text).toContain('The fetch client now retries twice.')
  }, 180_000)

  it("`codex exec` without narrativeInHeadless: captured, but the model is not asked for the handoff, so its answer is the run's", async () => {
    const proj3 = mkdirp(join(root, 'proj3'))
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: proj3 })
    const plain = { ...env }
    delete plain.BOOKMARK_NARRATIVE_IN_HEADLESS
    const before = fake.requests.length
    const r = await codex(['exec', '-s', 'workspace-write', 'patch file'], proj3, plain)
    expect(r.code, r.stderr).toBe(0)
    // The patch, then the model's own last word: no third request carrying our Stop reason.
    expect(fake.requests.slice(before).map((q) => q.reply)).toEqual(['apply_patch', 'Done.'])
    expect(r.stdout.trim()).toBe('Done.')
    // A repository without a commit yet: no mark from git.
    expect(readFileSync(join(proj3, '.bookmark', 'LATEST.md'), 'utf8')).toContain('- `patched.txt` created +2 -0')
    expect(existsSync(join(proj3, '.bookmark', 'bookmark.context.md'))).toBe(false)
  }, 180_000)
})
