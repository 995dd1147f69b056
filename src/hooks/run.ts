/**
 * What every hook command shares: read the payload from stdin (never waiting forever), merge the
 * flags, run the hook, and turn any failure into a logged note. A hook always succeeds towards the host.
 */
import { resolve } from 'node:path'
import type { Host, HostEvent } from '../hosts/host.js'
import type { StdinResult } from '../cli/stdin.js'
import { captureOff } from '../config/resolve.js'
import { parseValue } from '../config/keys.js'
import { type Configured, type Deps, HOOK_LOCK_BUDGET_MS, configured, isHomeScope } from '../shared/deps.js'
import { homeLayout } from '../store/layout.js'
import { stateOf } from '../store/state.js'
import { stat } from '../shared/fsp.js'
import { isDirectory } from '../store/fs.js'
import { Project } from '../repo/project.js'

export interface HookFlags {
  cwd?: string
  transcript?: string
  sessionId?: string
}

export interface HookContext {
  /** Who runs the hook: how its payload read and how an answer must look. */
  host: Host
  event: HostEvent
  cwd: string
  transcript?: string
  sessionId?: string
  /** Deps with the project's configuration applied. */
  deps: Deps
  cfg: Configured
  /** True when the folder is not a project (home or /): only restore acts there. */
  homeScope: boolean
  /**
   * The project of `cwd`, opened once for this run (its root is the configuration's): hooks hand it down
   * instead of finding the root or reading git again. Opening it reads nothing; in home scope it is that
   * folder, which no hook reads (restore opens the project the home pointer names).
   */
  project: Project
  now: Date
}

export type HookBody = (ctx: HookContext) => Promise<unknown | undefined>

export interface HookRun {
  /** What to print on stdout: one JSON object, or nothing. */
  stdout: string
  notes: string[]
}

/** `readInput` reads the payload (the CLI: stdin, see cli/stdin.ts). */
export async function runHook(
  host: Host,
  name: string,
  body: HookBody,
  flags: HookFlags,
  given: Deps,
  readInput: () => Promise<StdinResult>,
  fallbackCwd: string,
): Promise<HookRun> {
  // BOOKMARK_DISABLE=1 for one run: decided before stdin, the store or git is touched (bin/bookmark.cjs does the same earlier).
  if (envDisables(given.env)) return { stdout: '', notes: [] }
  const notes: string[] = []
  // A hook answers within 2 s whatever the store holds: a lock it cannot have soon means this capture is skipped.
  const deps: Deps = { ...given, lockDeadline: given.lockDeadline ?? Date.now() + HOOK_LOCK_BUDGET_MS }
  let where: string | undefined
  try {
    const input = await readInput()
    if (input.timedOut) notes.push('stdin stayed open with no end: went on without waiting')
    const { event, notes: payloadNotes } = host.readPayload(input.text, input.truncated)
    notes.push(...payloadNotes.filter((n) => !(n.startsWith('empty hook payload') && (flags.transcript || flags.cwd))))
    const ctx = await hookContext(host, event, flags, deps, fallbackCwd)
    // Switched off (`bookmark off`, globally, or this session): silent, nothing written, not even a note.
    if (captureOff(ctx.cfg.resolved, ctx.sessionId ?? sessionOfTranscript(ctx.transcript)) !== undefined) return { stdout: '', notes: [] }
    if (!(await isDirectory(ctx.cwd))) {
      // The path came in the payload and can hold a token: redacted (the redactor loads only on this rare path).
      const { redact } = await import('../redact/secrets.js')
      notes.push(`working directory ${redact(ctx.cwd)} does not exist: nothing to do`)
      return { stdout: '', notes }
    }
    where = ctx.homeScope ? undefined : (await stateOf(deps.bookmarkHome, ctx.cfg.projectRoot))?.errorsLog
    notes.push(...ctx.cfg.resolved.problems)
    const out = await body(ctx)
    return { stdout: out === undefined ? '' : JSON.stringify(out), notes }
  } catch (e) {
    const message = `${name} hook failed: ${e instanceof Error ? e.message : String(e)}`
    notes.push(message)
    await logFailure(deps, where, message)
    return { stdout: '', notes }
  }
}

/** Whether the environment switches capture off for this run (the `disable` key's variable, read as that key reads it). */
export function envDisables(env: NodeJS.ProcessEnv): boolean {
  const raw = env.BOOKMARK_DISABLE
  if (raw === undefined || raw === '') return false
  const v = parseValue('disable', raw)
  return v.ok && v.value === 1
}

/** A session id from a transcript path (`<id>.jsonl`), for a payload that names only the transcript. */
function sessionOfTranscript(transcript: string | undefined): string | undefined {
  return transcript?.replace(/^.*[\\/]/, '').replace(/\.jsonl$/i, '') || undefined
}

/** The context a hook body runs in, from the host's event and the flags (also used by the demo and MCP). */
export async function hookContext(host: Host, event: HostEvent, flags: HookFlags, deps: Deps, fallbackCwd: string): Promise<HookContext> {
  const cwd = resolve(flags.cwd ?? event.cwd ?? fallbackCwd)
  const cfg = await configured(deps, cwd)
  const transcript = flags.transcript ?? event.transcript
  const sessionId = flags.sessionId ?? event.sessionId
  return {
    host,
    event,
    cwd,
    deps: cfg.deps,
    cfg,
    homeScope: isHomeScope(cfg.projectRoot, deps.env),
    project: new Project(cfg.projectRoot),
    now: deps.now(),
    ...(transcript ? { transcript } : {}),
    ...(sessionId ? { sessionId } : {}),
  }
}

async function logFailure(deps: Deps, projectLog: string | undefined, message: string): Promise<void> {
  const line = `${deps.now().toISOString()} ${message.replace(/\s+/g, ' ')}`
  const targets = [projectLog, homeLayout(deps.bookmarkHome).errorsLog].filter((p): p is string => p !== undefined)
  for (const path of targets) {
    try {
      await stat(resolve(path, '..')) // only into a store that exists; never create folders to log
      const { appendCapped } = await import('../store/store.js') // only when something failed
      // Logging a failure waits a little even past the deadline: a line lost is a failure no one sees.
      await appendCapped(path, line, undefined, deps.lockDeadline)
      return
    } catch {
      // try the next place; stderr always gets it
    }
  }
}
