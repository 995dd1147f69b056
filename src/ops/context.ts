/**
 * What every operation needs from the outside world, passed in explicitly (no singletons: the MCP
 * server is long-lived and tests run many projects in one process).
 */
import { randomBytes } from 'node:crypto'
import { homedir } from 'node:os'
import { join } from 'node:path'

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
  return join(env.HOME && env.HOME.trim() !== '' ? env.HOME : homedir(), '.bookmark')
}

export function defaultDeps(env: NodeJS.ProcessEnv, log: (m: string) => void): Deps {
  return {
    env,
    bookmarkHome: bookmarkHomeFrom(env),
    now: () => new Date(),
    random4: () => randomBytes(2).toString('hex'),
    log,
    indexCap: 50,
    registryCap: 500,
  }
}
