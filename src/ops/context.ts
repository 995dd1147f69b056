/**
 * What every operation needs from the outside world, passed in explicitly (no singletons: the MCP
 * server is long-lived and tests run many projects in one process).
 */
import { homeDir } from '../shared/builtin.js'
import { randomHex } from '../shared/random.js'
import { join, resolve } from 'node:path'
import { type Resolved, resolveConfig } from '../config/resolve.js'
import type { ConfigKey } from '../config/keys.js'
import { findProjectRoot } from '../store/project.js'

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
}

export function bookmarkHomeFrom(env: NodeJS.ProcessEnv): string {
  const explicit = env.BOOKMARK_HOME
  if (explicit && explicit.trim() !== '') return explicit
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
  const resolved = await resolveConfig({ bookmarkHome: deps.bookmarkHome, projectRoot: root, env: deps.env, flags })
  return { deps: { ...deps, indexCap: resolved.config.indexCap, registryCap: resolved.config.registryCap }, resolved, projectRoot: root }
}

/** A folder that is not a project: the home folder itself or the file-system root. */
export function isHomeScope(root: string, env: NodeJS.ProcessEnv): boolean {
  const home = resolve(homeDir(env))
  return resolve(root) === home || resolve(root) === resolve('/')
}
