/**
 * The bench's worlds (a private HOME, bookmark home and git project) and what a case asks of them: where the
 * state is, whether a hook run succeeded, the hook command as setup writes it.
 */
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { REPO_ROOT } from '../../stress/lib/env.mjs'
import { git, gitProject, hookOutputProblem } from '../../stress/lib/sandbox.mjs'
import { BenchError, nodeCommand, runShell } from './measure.mjs'

/**
 * The node arguments before `<entry> <hook>` in the hooks setup writes (its guard, `-e <code>`), so a hook is
 * timed as Claude Code starts it; none for a CLI too old to say (BOOKMARK_BENCH_BIN).
 */
export function hookPrefix(bin, tmp) {
  const home = mkdtempSync(join(tmp, 'bench-setup-'))
  try {
    const r = spawnSync(process.execPath, [bin, 'setup', '--dry-run', '--json', '--hook-form', 'exec'], {
      env: { PATH: process.env.PATH, HOME: home, BOOKMARK_HOME: join(home, '.bookmark') },
      cwd: home,
      encoding: 'utf8',
    })
    const args = r.status === 0 ? JSON.parse(JSON.parse(r.stdout).preview).hooks.Stop[0].hooks[0].args : undefined
    return Array.isArray(args) && args.at(-2) === bin ? args.slice(0, -2) : []
  } catch {
    return []
  } finally {
    rmSync(home, { recursive: true, force: true })
  }
}

/** A private world: HOME, ~/.claude and ~/.bookmark inside `root/name`, and a git project beside them. */
export function world(root, name) {
  const dir = join(root, name)
  const home = join(dir, 'home')
  mkdirSync(home, { recursive: true })
  const project = gitProject(join(dir, 'project'))
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    BOOKMARK_HOME: join(home, '.bookmark'),
    CLAUDE_PROJECT_DIR: project,
    TMPDIR: dir,
    NODE_OPTIONS: '',
  }
  const sessionId = randomUUID()
  const transcriptDir = join(env.CLAUDE_CONFIG_DIR, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'))
  mkdirSync(transcriptDir, { recursive: true })
  const head = git(project, 'rev-parse', 'HEAD').trim()
  return { name, dir, home, project, env, sessionId, transcript: join(transcriptDir, `${sessionId}.jsonl`), branch: 'main', head }
}

export function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return undefined
  }
}

export function indexHead(w) {
  return readJson(join(w.project, '.bookmark', 'index.json'))?.snapshots?.[0]?.id
}

/** The CLI under test (as `settings().bin`): asked where a world's state is. */
const CLI = process.env.BOOKMARK_BENCH_BIN ? resolve(process.env.BOOKMARK_BENCH_BIN) : join(REPO_ROOT, 'bin', 'bookmark.cjs')

/** The project's folder in the bookmark home (cursors, session state, errors.log), as `bookmark status` names it; null before a capture. */
export function stateDirOf(w) {
  const r = runShell(nodeCommand([CLI, 'status', '--json']), { env: w.env, cwd: w.project })
  if (r.status !== 0) throw new BenchError(`bookmark status --json: ${r.stderr.slice(0, 300)}`)
  return JSON.parse(r.stdout).stateDir
}

export function errorsLogPath(w) {
  const dir = stateDirOf(w)
  return dir === null ? undefined : join(dir, 'errors.log')
}

export function errorsLogSize(w) {
  const p = errorsLogPath(w)
  return p !== undefined && existsSync(p) ? statSync(p).size : 0
}

/** Throws when a hook run is not a success: exit code, stdout shape, a failure reported on stderr. */
export function checkHookRun(label, hook, r) {
  if (r.status !== 0) throw new BenchError(`${label}: exit ${r.status ?? r.signal}: ${r.stderr.slice(0, 500)}`)
  const problem = hookOutputProblem(hook, r.stdout)
  if (problem) throw new BenchError(`${label}: ${problem}`)
  if (/hook (failed|error)/.test(r.stderr)) throw new BenchError(`${label}: ${r.stderr.trim().slice(0, 500)}`)
}

export function additionalContext(r) {
  return r.stdout.trim() === '' ? undefined : JSON.parse(r.stdout).hookSpecificOutput?.additionalContext
}
