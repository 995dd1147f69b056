/**
 * What every operation needs from the outside world, passed in explicitly (no singletons: the MCP
 * server is long-lived and tests run many projects in one process).
 */
import { homeDir } from './builtin.js'
import { randomHex } from './random.js'
import { isAbsolute, join, resolve } from 'node:path'
import { type Resolved, resolveConfig } from '../config/resolve.js'
import type { ConfigKey } from '../config/keys.js'
import { findProjectRoot } from '../repo/root.js'

export interface Deps {
  env: NodeJS.ProcessEnv
  /** The bookmark home (`BOOKMARK_HOME`, else ~/.bookmark). */
  bookmarkHome: string
  now: () => Date
  /** Four random hex digits for snapshot ids. */
  random4: () => string
  /** Diagnostics for people: stderr in the CLI. Never stdout. */
  log: (message: string) => void
  indexCap: number
  registryCap: number
  /** The `subagents` key: false leaves subagent activity out of what a capture extracts. */
  subagents: boolean
  /**
   * The moment (epoch ms) after which no lock is waited for; undefined: each lock's own wait (15 s). A hook answers
   * within 2 s whatever the store holds, so all its lock waits together end by this moment.
   */
  lockDeadline?: number
}

/** How long, from its start, a hook may wait for locks in all: a capture not done by then is skipped and logged. */
export const HOOK_LOCK_BUDGET_MS = 1_400

export function bookmarkHomeFrom(env: NodeJS.ProcessEnv): string {
  const explicit = env.BOOKMARK_HOME
  // A relative BOOKMARK_HOME is taken from the home folder, once: never from wherever a hook happens to run.
  if (explicit && explicit.trim() !== '') return isAbsolute(explicit) ? explicit : join(homeDir(env), explicit)
  return join(homeDir(env), '.bookmark')
}

export function defaultDeps(env: NodeJS.ProcessEnv, log: (m: string) => void): Deps {
  return {
    env,
    bookmarkHome: bookmarkHomeFrom(env),
    now: () => new Date(),
    random4: () => randomHex(2),
    log,
    indexCap: 50,
    registryCap: 500,
    subagents: true,
  }
}

export interface Configured {
  deps: Deps
  resolved: Resolved
  projectRoot: string
}

/** The configuration in force for the project of `cwd`, and deps whose caps follow it. */
export async function configured(deps: Deps, cwd: string, flags: Partial<Record<ConfigKey, unknown>> = {}): Promise<Configured> {
  const { root } = await findProjectRoot(resolve(cwd), deps.env.CLAUDE_PROJECT_DIR)
  const resolved = await resolveConfig({ bookmarkHome: deps.bookmarkHome, ...(isHomeScope(root, deps.env) ? {} : { projectRoot: root }), env: deps.env, flags })
  return {
    deps: { ...deps, indexCap: resolved.config.indexCap, registryCap: resolved.config.registryCap, subagents: resolved.config.subagents === 1 },
    resolved,
    projectRoot: root,
  }
}

/** A folder that is not a project: the home folder itself or the file-system root. */
export function isHomeScope(root: string, env: NodeJS.ProcessEnv): boolean {
  const home = resolve(homeDir(env))
  return resolve(root) === home || resolve(root) === resolve('/')
}
