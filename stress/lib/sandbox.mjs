/**
 * Private worlds and processes: every case runs the CLI with its own HOME, CLAUDE_CONFIG_DIR and
 * BOOKMARK_HOME inside a temp folder (the same isolation as test/helpers/cli.ts), so nothing of the real
 * user's ~/.claude or ~/.bookmark is reachable.
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { binPath } from './env.mjs'

const made = []

/** A temp world: `{dir, home, env}`; removed by `cleanupSandboxes()` unless STRESS_KEEP=1. */
export function sandbox(label = 'x') {
  const dir = mkdtempSync(join(process.env.STRESS_TMP ?? tmpdir(), `bm-stress-${label}-`))
  const home = join(dir, 'home')
  mkdirSync(home, { recursive: true })
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    BOOKMARK_HOME: join(home, '.bookmark'),
    TMPDIR: dir,
    NODE_OPTIONS: '',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  }
  made.push(dir)
  return { dir, home, env, bookmarkHome: env.BOOKMARK_HOME }
}

export function cleanupSandboxes() {
  if (process.env.STRESS_KEEP === '1') return made.splice(0)
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true, maxRetries: 3 })
  return []
}

/** A git project with one commit, so the project root is its top level and HEAD/branch are known. */
export function gitProject(dir) {
  mkdirSync(dir, { recursive: true })
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir })
  execFileSync('git', ['-c', 'user.email=s@s', '-c', 'user.name=s', 'commit', '-q', '--allow-empty', '-m', 'init'], { cwd: dir })
  return dir
}

export function git(dir, ...args) {
  return execFileSync('git', ['-c', 'user.email=s@s', '-c', 'user.name=s', ...args], { cwd: dir, encoding: 'utf8' })
}

/**
 * Reports the child's peak RSS on stderr at exit. VmHWM of /proc/self/status, not resourceUsage().maxRSS:
 * on Linux ru_maxrss survives execve, so a child forked from a big harness would report the harness's size.
 */
export const RSS_PRELOAD =
  'data:text/javascript,import{readFileSync}from"node:fs";process.on("exit",()=>{let kb=0;try{kb=Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync("/proc/self/status","utf8"))[1])}catch{kb=process.resourceUsage().maxRSS}process.stderr.write("\\nSTRESS_MAXRSS_KB="+kb+"\\n")})'

/**
 * Starts the CLI. `stdin`: a string or Buffer written then closed; `{open: true}` keeps the pipe open
 * with nothing written; `{open: true, data}` writes data and keeps it open. Returns `{child, done}` where
 * `done` resolves to `{code, signal, stdout, stderr, ms, timedOut, rssKb}`.
 */
export function spawnCli(args, opts) {
  const started = process.hrtime.bigint()
  const nodeArgs = opts.rss ? ['--import', RSS_PRELOAD] : []
  const cmd = opts.umask !== undefined ? '/bin/sh' : process.execPath
  const argv =
    opts.umask !== undefined
      ? ['-c', `umask ${opts.umask}; exec "$0" "$@"`, process.execPath, ...nodeArgs, binPath(), ...args]
      : [...nodeArgs, binPath(), ...args]
  const child = spawn(cmd, argv, { env: opts.env, cwd: opts.cwd ?? opts.env.HOME, stdio: ['pipe', 'pipe', 'pipe'] })
  const out = []
  const err = []
  let outLen = 0
  const maxOut = opts.maxOutput ?? 64 * 1024 * 1024
  child.stdout.on('data', (d) => {
    if (outLen < maxOut) out.push(d)
    outLen += d.length
  })
  child.stderr.on('data', (d) => {
    if (err.length < 4096) err.push(d)
  })
  child.stdin.on('error', () => undefined) // the child may exit before reading everything: not our concern here
  const stdin = opts.stdin
  if (stdin === undefined) child.stdin.end()
  else if (typeof stdin === 'string' || Buffer.isBuffer(stdin)) child.stdin.end(stdin)
  else if (stdin.open) {
    if (stdin.data !== undefined) child.stdin.write(stdin.data)
  }
  let timedOut = false
  const timer = opts.timeoutMs
    ? setTimeout(() => {
        timedOut = true
        child.kill('SIGKILL')
      }, opts.timeoutMs)
    : undefined
  const done = new Promise((resolve) => {
    child.on('error', (e) => {
      err.push(Buffer.from(`spawn error: ${e.message}`))
    })
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer)
      if (stdin && typeof stdin === 'object' && !Buffer.isBuffer(stdin) && stdin.open) child.stdin.destroy()
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      let stderr = Buffer.concat(err).toString('utf8')
      let rssKb
      const m = /\nSTRESS_MAXRSS_KB=(\d+)\n?/.exec(stderr)
      if (m) {
        rssKb = Number(m[1])
        stderr = stderr.replace(m[0], '')
      }
      resolve({ code, signal, stdout: Buffer.concat(out).toString('utf8'), stdoutBytes: outLen, stderr, ms, timedOut, rssKb })
    })
  })
  return { child, done }
}

export function runCli(args, opts) {
  return spawnCli(args, opts).done
}

/** Runs `fn` over `items` with at most `width` at a time; results in order. */
export async function pool(items, width, fn) {
  const results = new Array(items.length)
  let next = 0
  const workers = Array.from({ length: Math.min(width, items.length) }, async () => {
    for (;;) {
      const i = next++
      if (i >= items.length) return
      results[i] = await fn(items[i], i)
    }
  })
  await Promise.all(workers)
  return results
}

/** A seeded PRNG (mulberry32): every run of the suite mutates and schedules the same way. */
export function rng(seed) {
  let s = seed >>> 0
  const r = () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  r.int = (n) => Math.floor(r() * n)
  r.pick = (arr) => arr[Math.floor(r() * arr.length)]
  return r
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** What each hook may print: nothing, or one JSON object of its documented shape. Returns an error text or ''. */
export function hookOutputProblem(hook, stdout) {
  const t = stdout.trim()
  if (t === '') return ''
  if (hook === 'precompact') return `precompact printed ${JSON.stringify(t.slice(0, 80))} (it prints nothing)`
  if (stdout.indexOf('\n') !== stdout.length - 1) return `more than one line on stdout: ${JSON.stringify(t.slice(0, 80))}`
  let v
  try {
    v = JSON.parse(t)
  } catch (e) {
    return `stdout is not JSON: ${JSON.stringify(t.slice(0, 80))}`
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'stdout JSON is not an object'
  if (hook === 'stop') {
    const keys = Object.keys(v).sort().join(',')
    return keys === 'decision,reason' && v.decision === 'block' && typeof v.reason === 'string' ? '' : `stop printed an unexpected shape: ${t.slice(0, 80)}`
  }
  const event = hook === 'check' ? 'UserPromptSubmit' : hook === 'restore' ? 'SessionStart' : undefined
  const h = v.hookSpecificOutput
  if (Object.keys(v).join(',') !== 'hookSpecificOutput' || !h || h.hookEventName !== event || typeof h.additionalContext !== 'string')
    return `${hook} printed an unexpected shape: ${t.slice(0, 80)}`
  if (h.additionalContext.length > 10_000) return `${hook} additionalContext is ${h.additionalContext.length} characters (over the host cap of 10,000)`
  return ''
}
