/**
 * Project aliases: a name that `search --project NAME`, orientation and MCP take for projects whose folder or
 * repository is named otherwise (`posh` for `D:\\oh-my-posh`, `web` for two repositories). Kept in the global
 * config file (`aliases`, beside `values`), since a name is looked up across every project: each alias stands for
 * project paths (that folder and its subfolders) and other names (a folder or repository name).
 * Reading is tolerant (a bad entry is left out); writing (config/write.ts) validates.
 */
import { readFileSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { isObject } from '../shared/json.js'

export type Aliases = Record<string, string[]>

const NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/
/** A path as a session's working directory holds it: POSIX, or a Windows drive or share. */
const ABSOLUTE = /^(\/|[A-Za-z]:[\\/]|\\\\)/
export const MAX_TARGETS = 20

export function isAliasName(name: string): boolean {
  return NAME.test(name)
}

/** A target as stored: an absolute path (a relative one is taken from `cwd`), or a project name. */
export function aliasTarget(raw: string, cwd: string): string | undefined {
  const t = raw.trim()
  if (t === '' || t.length > 4096) return undefined
  if (ABSOLUTE.test(t)) return t
  if (t.includes('/') || t.includes('\\') || t === '.' || t === '..') return isAbsolute(t) ? t : resolve(cwd, t)
  return NAME.test(t) ? t : undefined
}

/** The well-formed aliases of a config file's `aliases` field (names lower-cased). */
export function aliasesOf(raw: unknown): Aliases {
  const out: Aliases = Object.create(null) as Aliases
  if (!isObject(raw)) return out
  for (const [name, targets] of Object.entries(raw)) {
    if (!NAME.test(name) || !Array.isArray(targets)) continue
    const ok = targets.filter((t): t is string => typeof t === 'string' && t !== '' && (ABSOLUTE.test(t) || NAME.test(t))).slice(0, MAX_TARGETS)
    if (ok.length > 0) out[name.toLowerCase()] = ok
  }
  return out
}

/** The aliases of the global config file (resolve.ts globalConfigPath); none when it is missing or unreadable. */
export function readAliases(configPath: string): Aliases {
  try {
    const v = JSON.parse(readFileSync(configPath, 'utf8')) as unknown
    return isObject(v) ? aliasesOf(v.aliases) : aliasesOf(undefined)
  } catch {
    return aliasesOf(undefined)
  }
}

/** The aliases of the bookmark home's global config file (`<home>/config.json`, resolve.ts's globalConfigPath). */
export function homeAliases(bookmarkHome: string): Aliases {
  return readAliases(join(bookmarkHome, 'config.json'))
}

/** What an alias stands for, split into paths and names; undefined when `name` is no alias. */
export function expandAlias(aliases: Aliases, name: string): { paths: string[]; names: string[] } | undefined {
  const targets = aliases[name.toLowerCase()]
  if (!targets) return undefined
  return { paths: targets.filter((t) => ABSOLUTE.test(t)), names: targets.filter((t) => !ABSOLUTE.test(t)) }
}
