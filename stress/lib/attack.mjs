/**
 * Helpers shared by the cases of issue 15 (09 trust, 10 hangs, 11 clocks, 12 text): hook payloads, one
 * call of every command a user's session makes, MCP calls, marker scans and plantings (FIFOs, lock
 * directories, locks of a live owner). They look only at what the CLI prints and at the store's files, so
 * they hold for any layout of the store (the project's `.bookmark/` and, when `status --json` names one,
 * the machine-local state folder).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { runCli, spawnCli } from './sandbox.mjs'
import { walk } from './store.mjs'

/** A hook payload as Claude Code sends it. */
export function payload(event, sid, transcript, cwd, extra = {}) {
  return JSON.stringify({ session_id: sid, transcript_path: transcript, cwd, hook_event_name: event, permission_mode: 'default', ...extra })
}

const EVENTS = { stop: 'Stop', check: 'UserPromptSubmit', precompact: 'PreCompact', restore: 'SessionStart' }

/** Runs hook `name` (stop, check, precompact, restore) with its payload; `extra` adds payload fields. */
export function hook(name, w, extra = {}, opts = {}) {
  const base =
    name === 'stop'
      ? { stop_hook_active: false }
      : name === 'check'
        ? { prompt: 'go on' }
        : name === 'precompact'
          ? { trigger: 'auto', custom_instructions: null }
          : { source: 'startup' }
  const sid = opts.sid ?? w.sid
  const t = opts.transcript ?? w.t
  return runCli([name], {
    env: opts.env ?? w.env,
    cwd: w.p,
    stdin: payload(EVENTS[name], sid, t, w.p, { ...base, ...extra }),
    timeoutMs: opts.timeoutMs ?? 30_000,
  })
}

/** `bookmark <args> --cwd <project>`. */
export function cmd(args, w, opts = {}) {
  return runCli([...args, '--cwd', w.p], { env: opts.env ?? w.env, cwd: w.p, timeoutMs: opts.timeoutMs ?? 30_000 })
}

/** The JSON of `status --json`, or undefined. */
export async function statusJson(w, opts = {}) {
  const r = await cmd(['status', '--json'], w, opts)
  try {
    return JSON.parse(r.stdout)
  } catch {
    return undefined
  }
}

/** The machine-local state folder `status --json` names (the new layout), or undefined (the old one keeps it in `.bookmark/`). */
export async function stateDirOf(w, opts = {}) {
  const s = await statusJson(w, opts)
  return s && typeof s.stateDir === 'string' && s.stateDir !== '' ? s.stateDir : undefined
}

/**
 * Calls MCP tools over one `bookmark mcp` process: `calls` = [{name, arguments}]. Returns
 * `{available, text, timedOut}` (`text` = everything the server printed).
 */
export async function mcpCalls(env, cwd, calls, timeoutMs = 20_000) {
  const msgs = [
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'stress', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    ...calls.map((c, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: c })),
  ]
  const h = spawnCli(['mcp'], { env, cwd, stdin: { open: true }, timeoutMs })
  for (const m of msgs) h.child.stdin.write(`${JSON.stringify(m)}\n`)
  setTimeout(() => h.child.stdin.end(), 1_500)
  const res = await h.done
  if (/unknown command 'mcp'/.test(res.stderr)) return { available: false, text: '', timedOut: false }
  return { available: true, text: `${res.stdout}\n${res.stderr}`, timedOut: res.timedOut, ms: res.ms }
}

/** The read-only MCP tools and a snapshot, each for `cwd`. */
export function mcpEverything(cwd, sid) {
  return [
    { name: 'bookmark_restore', arguments: { cwd, source: 'startup' } },
    { name: 'bookmark_restore', arguments: { cwd, source: 'compact', session_id: sid } },
    { name: 'bookmark_status', arguments: { cwd } },
    { name: 'bookmark_list', arguments: { cwd } },
    { name: 'bookmark_list', arguments: { cwd, all: true } },
    { name: 'bookmark_show', arguments: { cwd } },
  ]
}

/** Distinct matches of `re` (global) in `text`. */
export function markersIn(text, re) {
  return [...new Set(String(text).match(re) ?? [])]
}

/** A stack trace on stderr (an internal error shown to the user). */
export function hasStackTrace(stderr) {
  return /\n\s+at [^\n]*(?:\(|\/)[^\n]*:\d+:\d+/.test(`\n${stderr}`)
}

/** Replaces whatever is at `path` by a FIFO (parents made). */
export function plantFifo(path) {
  mkdirSync(dirname(path), { recursive: true })
  rmSync(path, { recursive: true, force: true })
  execFileSync('mkfifo', ['-m', '600', path])
}

export function isFifo(path) {
  try {
    return lstatSync(path).isFIFO()
  } catch {
    return false
  }
}

/** Replaces whatever is at `path` by a directory with a file in it. */
export function plantDir(path) {
  rmSync(path, { recursive: true, force: true })
  mkdirSync(path, { recursive: true })
  writeFileSync(join(path, 'keep'), 'planted\n')
}

/** A lock file held by a live process (pid 1) on this host, with its time and mtime an hour in the future. */
export function plantLiveLock(path) {
  mkdirSync(dirname(path), { recursive: true })
  rmSync(path, { recursive: true, force: true })
  const future = Date.now() + 3_600_000
  writeFileSync(path, JSON.stringify({ pid: 1, host: hostname(), nonce: 'planted0', at: future }), { mode: 0o600 })
  utimesSync(path, future / 1000, future / 1000)
}

/** Regular files under `dir` (relative paths), symlinks not followed. */
export function filesUnder(dir) {
  return walk(dir)
    .filter((e) => e.isFile)
    .map((e) => e.rel)
}

/** Snapshot file names (without .json) in `<store>/snapshots/`. */
export function snapshotFiles(store) {
  try {
    return readdirSync(join(store, 'snapshots'))
      .filter((n) => n.endsWith('.json'))
      .map((n) => n.slice(0, -5))
  } catch {
    return []
  }
}

/** The lines of every `errors.log` under these folders, joined (to see a capture reported as skipped). */
export function errorLogs(...dirs) {
  let out = ''
  for (const d of dirs) {
    if (!d || !existsSync(d)) continue
    for (const e of walk(d)) if (e.isFile && e.rel.endsWith('errors.log')) out += readFileSync(e.path, 'utf8')
  }
  return out
}

/** The `<!-- BOOKMARK_IDENTITY … -->` header a Stop block reason gives the model, or undefined. */
export function headerFromReason(reason) {
  const m = /<!-- BOOKMARK_IDENTITY[\s\S]*?-->/.exec(reason ?? '')
  return m ? `${m[0]}\n` : undefined
}

export function parseJson(text) {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The `additionalContext` of a hook's output, or ''. */
export function contextOf(stdout) {
  return parseJson(stdout.trim())?.hookSpecificOutput?.additionalContext ?? ''
}
