/**
 * Drives the real Claude Code CLI offline against the fake Anthropic API on 127.0.0.1, in a private world
 * of temp folders, and runs our own CLI the same way. Two pinned versions: 2.1.332 (node_modules/.bin/claude,
 * a devDependency, the default) and 2.0.76 (test/realhost/claude-2.0, the last JS build before exec-form
 * hooks; installed on first use by ensureClaude). Recipe: ../shared/docs/real-host-harness.md (§2 env and
 * flags, §9 pitfalls); what differs in 2.0.76: docs/REALHOST-OLD.md.
 */
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { delimiter, dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FakeAnthropic } from './fake-anthropic.js'

export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)))
export const CLAUDE_BIN = join(REPO_ROOT, 'node_modules', '.bin', 'claude')
export const BOOKMARK_BIN = join(REPO_ROOT, 'bin', 'bookmark.cjs')
export const CLAUDE_VERSION = '2.1.332'
/** Before 2.1.139: no exec-form hooks (`command` + `args`), so `bookmark setup` must write shell form for it (issue 16). */
export const OLD_CLAUDE_VERSION = '2.0.76'
export type ClaudeVersion = typeof CLAUDE_VERSION | typeof OLD_CLAUDE_VERSION

interface Host {
  /** The program and the arguments before ours. */
  cmd: string
  pre: string[]
  /** What a person runs when it is missing. */
  install: string
  /** A test-only npm folder with a committed lockfile, installed by ensureClaude when the host is missing. */
  npmFolder?: string
  /** What this version needs in its environment beyond the recipe (createWorld), to stay on 127.0.0.1. */
  env?: NodeJS.ProcessEnv
}

const OLD_FOLDER = join(REPO_ROOT, 'test', 'realhost', 'claude-2.0')

const HOSTS: Record<ClaudeVersion, Host> = {
  [CLAUDE_VERSION]: { cmd: CLAUDE_BIN, pre: [], install: `npm ci (a devDependency: @anthropic-ai/claude-code@${CLAUDE_VERSION})` },
  // The JS build runs on the Node that runs the tests; its shebang would take whichever node PATH has.
  [OLD_CLAUDE_VERSION]: {
    cmd: process.execPath,
    pre: [join(OLD_FOLDER, 'node_modules', '@anthropic-ai', 'claude-code', 'cli.js')],
    install: `npm ci --prefix ${relative(process.cwd(), OLD_FOLDER) || '.'} --omit=optional`,
    npmFolder: OLD_FOLDER,
    // At exit 2.0.76 asks https://api.anthropic.com whether metrics are enabled (API-key users; the
    // non-essential-traffic switch does not cover it): one DNS lookup per run. Through a proxy on a
    // closed loopback port it fails at once, unresolved; the fake on 127.0.0.1 is reached directly.
    env: { HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1' },
  },
}

/** The command line that starts Claude Code `version`. */
export function claudeCommand(version: ClaudeVersion = CLAUDE_VERSION): { cmd: string; args: string[] } {
  const h = HOSTS[version]
  return { cmd: h.cmd, args: [...h.pre] }
}

export interface ClaudeStatus {
  available: boolean
  why: string
}

/** Whether Claude Code `version` is installed and answers `--version` (checked once, before any fake runs). */
export function claudeStatus(version: ClaudeVersion = CLAUDE_VERSION): ClaudeStatus {
  const h = HOSTS[version]
  const program = h.pre[0] ?? h.cmd
  if (!existsSync(program)) return { available: false, why: `${program} is missing (${h.install} installs Claude Code ${version})` }
  const home = mkdtempSync(join(tmpdir(), 'bm-claude-version-'))
  try {
    const r = spawnSync(h.cmd, [...h.pre, '--version'], {
      encoding: 'utf8',
      timeout: 15_000,
      env: { PATH: process.env.PATH ?? '', HOME: home, CLAUDE_CONFIG_DIR: home },
    })
    if (r.status !== 0) return { available: false, why: `${program} --version failed: ${r.error?.message ?? r.stderr}` }
    if (!r.stdout.startsWith(`${version} `))
      return { available: false, why: `expected Claude Code ${version}, found ${r.stdout.trim()} (${h.install} installs it)` }
    return { available: true, why: '' }
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

/**
 * claudeStatus, after installing a missing test-only host from its committed lockfile (`npm ci`, a few
 * seconds; the npm cache and registry are whatever npm is configured with, so CI's throwaway cache).
 * Call it at the top of a test file, before any fake runs: it blocks. Without the registry a developer's
 * run skips with the reason; under CI=true it throws, so that a missing host cannot pass as a skip.
 */
export function ensureClaude(version: ClaudeVersion): ClaudeStatus {
  const before = claudeStatus(version)
  const folder = HOSTS[version].npmFolder
  if (before.available || folder === undefined) return before
  const r = spawnSync(
    'npm',
    [
      'ci',
      '--prefix',
      folder,
      '--omit=optional',
      '--prefer-offline',
      '--fetch-retries=1',
      '--fetch-retry-mintimeout=2000',
      '--fetch-retry-maxtimeout=5000',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    { encoding: 'utf8', timeout: 180_000, env: process.env },
  )
  const after =
    r.status === 0
      ? claudeStatus(version)
      : {
          available: false,
          why: `${HOSTS[version].install} failed (${r.error?.message ?? `exit ${r.status}`}): ${(r.stderr || r.stdout).trim().slice(0, 800)}`,
        }
  if (!after.available && /^(1|true)$/i.test(process.env.CI ?? '')) throw new Error(`Claude Code ${version} is needed in CI: ${after.why}`)
  return after
}

export interface World {
  root: string
  cfg: string
  proj: string
  tmp: string
  xdg: string
  home: string
  /** BOOKMARK_HOME */
  bookmarkHome: string
  settingsPath: string
  env: NodeJS.ProcessEnv
  /** The Claude Code version runClaude starts in this world (a run may still ask for another). */
  claude: ClaudeVersion
  cleanup(): void
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.email=test@example.invalid', '-c', 'user.name=test', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
  })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`)
  return r.stdout
}

function searchPath(): string {
  const dirs = [dirname(process.execPath)]
  const g = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' })
  if (g.status === 0 && g.stdout.trim()) dirs.push(dirname(g.stdout.trim()))
  dirs.push('/usr/local/bin', '/usr/bin', '/bin')
  return [...new Set(dirs)].join(delimiter)
}

/**
 * A fresh world: cfg (CLAUDE_CONFIG_DIR), proj (a git repository on branch main with one commit),
 * tmp (CLAUDE_CODE_TMPDIR), xdg (XDG_RUNTIME_DIR), home (HOME; BOOKMARK_HOME is home/.bookmark).
 * The environment is built from nothing: no variable of the developer's leaks into a run.
 */
export function createWorld(fake: FakeAnthropic, prefix = 'bm-realhost-', opts: { claude?: ClaudeVersion } = {}): World {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  const d = (n: string): string => {
    const p = join(root, n)
    mkdirSync(p, { recursive: true })
    return p
  }
  const cfg = d('cfg')
  const proj = d('proj')
  const tmp = d('tmp')
  const xdg = d('xdg')
  const home = d('home')
  git(proj, 'init', '-q', '-b', 'main')
  git(proj, 'commit', '-q', '--allow-empty', '-m', 'init')
  const bookmarkHome = join(home, '.bookmark')
  // The world's `claude` on PATH, as a user has it: `bookmark setup` asks it for its version to pick the hook form.
  const bin = d('bin')
  const claude = opts.claude ?? CLAUDE_VERSION
  const q = (w: string): string => `'${w.replace(/'/g, `'\\''`)}'`
  const started = claudeCommand(claude)
  writeFileSync(join(bin, 'claude'), `#!/bin/sh\nexec ${[started.cmd, ...started.args].map(q).join(' ')} "$@"\n`, { mode: 0o755 })
  const env: NodeJS.ProcessEnv = {
    PATH: [bin, searchPath()].join(delimiter),
    HOME: home,
    TMPDIR: tmp,
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: 'sk-ant-fake-realhost-test-key-000000',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_MAX_RETRIES: '0',
    CLAUDE_CONFIG_DIR: cfg,
    CLAUDE_CODE_TMPDIR: tmp,
    XDG_RUNTIME_DIR: xdg,
    BOOKMARK_HOME: bookmarkHome,
    NODE_OPTIONS: '',
  }
  return {
    root,
    cfg,
    proj,
    tmp,
    xdg,
    home,
    bookmarkHome,
    settingsPath: join(cfg, 'settings.json'),
    env,
    claude,
    cleanup: () => {
      if (process.env.KEEP_REALHOST) console.warn(`realhost world kept at ${root}`)
      else rmSync(root, { recursive: true, force: true })
    },
  }
}

export interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  ms: number
}

/** Spawns a process in its own process group, with a hard timeout that kills the whole group (hooks too). */
function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; input?: string }): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const started = Date.now()
    // Async spawn only: the fake server lives in this process, spawnSync would deadlock it.
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    let timedOut = false
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
    const timer = setTimeout(() => {
      timedOut = true
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }, opts.timeoutMs)
    child.on('error', (e) => {
      clearTimeout(timer)
      reject(e)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const r = { code, signal, stdout, stderr, ms: Date.now() - started }
      if (timedOut) reject(new Error(`${cmd} ${args.join(' ')} timed out after ${opts.timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`))
      else resolvePromise(r)
    })
    child.stdin.end(opts.input ?? '')
  })
}

export interface ClaudeResult extends Run {
  /** The `--output-format json` result object (with `stream`: the stream's last line, of type "result"). */
  json: { session_id: string; result?: string; is_error?: boolean; num_turns?: number; local_command?: string; [k: string]: unknown }
  /** With `stream`: every line of the stream (init, messages, hook responses, result); else empty. */
  events: Line[]
}

export interface ClaudeOptions {
  /** Working directory (default: the project). */
  cwd?: string
  /** A new session with this id (`--session-id`). */
  sessionId?: string
  /** Continue this session (`--resume`). */
  resume?: string
  timeoutMs?: number
  env?: NodeJS.ProcessEnv
  extraArgs?: string[]
  /** `--permission-mode` (default acceptEdits); null leaves the flag out: Claude Code's default mode, which asks (denies in -p). */
  permissionMode?: string | null
  /** The Claude Code version (default: the world's). */
  version?: ClaudeVersion
  /** `--output-format stream-json --verbose`: the events too (2.0.76 streams SessionStart hook responses with their stderr and exit code). */
  stream?: boolean
}

/** All runs of the suite, for the timing report. */
export const runLog: { version: ClaudeVersion; args: string[]; ms: number }[] = []

/**
 * `claude -p <prompt> --permission-mode acceptEdits --output-format json` in the world, with a hard timeout
 * (`permissionMode` picks another mode, or none).
 * Rejects unless the run exits 0 with a JSON result that is not an error.
 */
export async function runClaude(world: World, prompt: string, opts: ClaudeOptions = {}): Promise<ClaudeResult> {
  const mode = opts.permissionMode === undefined ? 'acceptEdits' : opts.permissionMode
  const args = [
    '-p',
    prompt,
    ...(mode === null ? [] : ['--permission-mode', mode]),
    ...(opts.stream ? ['--output-format', 'stream-json', '--verbose'] : ['--output-format', 'json']),
  ]
  if (opts.sessionId) args.push('--session-id', opts.sessionId)
  if (opts.resume) args.push('--resume', opts.resume)
  args.push(...(opts.extraArgs ?? []))
  const version = opts.version ?? world.claude
  const claude = claudeCommand(version)
  const r = await run(claude.cmd, [...claude.args, ...args], {
    cwd: opts.cwd ?? world.proj,
    env: { ...world.env, ...HOSTS[version].env, ...opts.env },
    timeoutMs: opts.timeoutMs ?? 45_000,
  })
  runLog.push({ version, args: [prompt, ...(opts.resume ? ['--resume'] : [])], ms: r.ms })
  let json: ClaudeResult['json']
  let events: Line[] = []
  try {
    if (opts.stream) {
      events = r.stdout
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Line)
      const last = events.at(-1)
      if (last?.type !== 'result') throw new Error('no result line')
      json = last as ClaudeResult['json']
    } else json = JSON.parse(r.stdout) as ClaudeResult['json']
  } catch {
    throw new Error(`claude ${args.join(' ')} exited ${r.code} without a JSON result\nstdout: ${r.stdout}\nstderr: ${r.stderr}`)
  }
  if (r.code !== 0 || json.is_error) throw new Error(`claude ${args.join(' ')} failed (exit ${r.code})\nstdout: ${r.stdout}\nstderr: ${r.stderr}`)
  return { ...r, json, events }
}

/** Our own CLI, with the world's environment (no stdin payload unless given). */
export function runBookmark(world: World, args: string[], opts: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return run(process.execPath, [BOOKMARK_BIN, ...args], {
    cwd: opts.cwd ?? world.proj,
    env: { ...world.env, ...opts.env },
    timeoutMs: 30_000,
    ...(opts.input !== undefined ? { input: opts.input } : {}),
  })
}

/** Wires our four hooks into $CLAUDE_CONFIG_DIR/settings.json with `bookmark setup` itself (run from HOME). */
export async function installHooks(world: World): Promise<Run> {
  const r = await runBookmark(world, ['setup'], { cwd: world.home })
  if (r.code !== 0) throw new Error(`bookmark setup failed (exit ${r.code}): ${r.stderr}${r.stdout}`)
  return r
}

/** Takes them out again with `bookmark uninstall`. */
export async function uninstallHooks(world: World): Promise<Run> {
  const r = await runBookmark(world, ['uninstall'], { cwd: world.home })
  if (r.code !== 0) throw new Error(`bookmark uninstall failed (exit ${r.code}): ${r.stderr}${r.stdout}`)
  return r
}

// ---------------------------------------------------------------------------------------------------------
// Transcripts and the store

/** Claude Code's project folder name: every character outside [A-Za-z0-9] becomes "-". */
export function transcriptPath(world: World, cwd: string, sessionId: string): string {
  return join(world.cfg, 'projects', cwd.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`)
}

export type Line = Record<string, unknown> & { type?: string }

export function readJsonl(path: string): Line[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Line)
}

/** The Stop summaries Claude Code 2.1 wrote into a session's transcript: how many hook errors (blocks) each had. */
export function stopBlocks(world: World, sessionId: string): number[] {
  const summaries = readJsonl(transcriptPath(world, world.proj, sessionId)).filter((l) => l.type === 'system' && l.subtype === 'stop_hook_summary')
  return (summaries as { hookErrors: unknown[] }[]).map((s) => s.hookErrors.length)
}

/** The stdout our hook printed for `event`, as Claude Code recorded it (hook_success attachments), in order. */
export function hookStdouts(lines: Line[], event: string): string[] {
  const out: string[] = []
  for (const l of lines) {
    const a = l.attachment as { type?: string; hookEvent?: string; hookName?: string; stdout?: string; command?: string } | undefined
    if (l.type === 'attachment' && a?.type === 'hook_success' && (a.hookEvent === event || a.hookName?.startsWith(event)) && typeof a.stdout === 'string')
      out.push(a.stdout)
  }
  return out
}

export function newSessionId(): string {
  return randomUUID()
}
