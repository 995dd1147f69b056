/**
 * Resolving the configuration in force, with where each value came from.
 */
import { join } from 'node:path'
import { isObject } from '../shared/json.js'
import { readJson } from '../store/read.js'
import { stateOf } from '../store/state.js'
import { CONFIG_KEYS, type Config, type ConfigKey, KEYS, type Source, isConfigKey, parseValue } from './keys.js'

export const CONFIG_VERSION = 1

export interface Resolved {
  config: Config
  sources: Record<ConfigKey, Source>
  /** Values that were ignored, with why (a bad value in a file or the environment never stops a hook). */
  problems: string[]
  files: { global: string; project?: string }
  /** Sessions switched off in the project's file (`bookmark off --session ID`): id -> when. */
  sessionsOff: Record<string, string>
}

export interface ConfigFile {
  version: number
  values: Record<string, unknown>
  /**
   * Sessions switched off, beside the values: in the file every hook reads anyway, so the per-session switch
   * costs no read of its own. Only the project's file has them.
   */
  sessionsOff?: Record<string, string>
  /** Project aliases (config/aliases.ts): only the global file has them. */
  aliases?: Record<string, string[]>
}

export function isConfigFile(v: unknown): v is ConfigFile {
  return isObject(v) && isObject(v.values)
}

export function globalConfigPath(bookmarkHome: string): string {
  return join(bookmarkHome, 'config.json')
}

/**
 * The project's configuration: in its folder of the bookmark home (store/layout.ts), where no repository can
 * plant one; undefined before this home's first capture (there is no such folder yet). A `.bookmark/config.json`
 * in the project (where versions before 0.2 kept it) is not read: doctor names it.
 */
export async function projectConfigPath(bookmarkHome: string, projectRoot: string): Promise<string | undefined> {
  return (await stateOf(bookmarkHome, projectRoot))?.config
}

/** Where versions before 0.2 kept the project's configuration: no longer read (it can arrive with a clone). */
export function legacyProjectConfigPath(projectRoot: string): string {
  return join(projectRoot, '.bookmark', 'config.json')
}

async function readFile(path: string, problems: string[]): Promise<ConfigFile | undefined> {
  const r = await readJson(path, isConfigFile)
  if (r.ok) return r.value
  if (!r.missing) problems.push(`${path} ignored: ${r.reason}`)
  return undefined
}

/** The switched-off sessions of a config file, keeping only well-formed entries (the file is ours, but read defensively). */
export function sessionsOffOf(file: ConfigFile | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null) // a session id is any string, `__proto__` included
  const raw = file?.sessionsOff
  if (!isObject(raw)) return out
  for (const [id, at] of Object.entries(raw)) if (typeof at === 'string') out[id] = at
  return out
}

/** Why capture is off for this run (the layer that turned it off, or `session`); undefined when it is on. */
export function captureOff(r: Resolved, sessionId: string | undefined): Source | 'session' | undefined {
  if (r.config.disable === 1) return r.sources.disable
  if (sessionId !== undefined && Object.prototype.hasOwnProperty.call(r.sessionsOff, sessionId)) return 'session'
  return undefined
}

export async function resolveConfig(opts: {
  bookmarkHome: string
  projectRoot?: string
  env: NodeJS.ProcessEnv
  flags?: Partial<Record<ConfigKey, unknown>>
}): Promise<Resolved> {
  const problems: string[] = []
  const project = opts.projectRoot ? await projectConfigPath(opts.bookmarkHome, opts.projectRoot) : undefined
  const files = { global: globalConfigPath(opts.bookmarkHome), ...(project ? { project } : {}) }
  const globalFile = await readFile(files.global, problems)
  const projectFile = files.project ? await readFile(files.project, problems) : undefined
  const layers: [Source, Record<string, unknown>, string][] = [
    ['global', globalFile?.values ?? {}, files.global],
    ['project', projectFile?.values ?? {}, files.project ?? ''],
  ]
  const envValues: Record<string, unknown> = {}
  for (const key of CONFIG_KEYS) {
    const v = opts.env[KEYS[key].env]
    if (v !== undefined && v !== '') envValues[key] = v
  }
  layers.push(['env', envValues, 'environment'])
  layers.push(['flag', (opts.flags ?? {}) as Record<string, unknown>, 'flags'])

  const config = {} as Config
  const sources = {} as Record<ConfigKey, Source>
  for (const key of CONFIG_KEYS) {
    config[key] = KEYS[key].default
    sources[key] = 'default'
  }
  for (const [source, values, where] of layers) {
    for (const [k, raw] of Object.entries(values)) {
      if (raw === undefined) continue
      if (!isConfigKey(k)) {
        if (source !== 'flag') problems.push(`${where}: unknown key "${k}" ignored`)
        continue
      }
      const parsed = parseValue(k, raw)
      if (!parsed.ok) {
        problems.push(`${where}: ${parsed.error}; using ${config[k]}`)
        continue
      }
      config[k] = parsed.value
      sources[k] = source
    }
  }
  if (config.staleRefuseHours < config.staleWarnHours)
    problems.push(`staleRefuseHours (${config.staleRefuseHours}) is below staleWarnHours (${config.staleWarnHours}): content that old is refused`)
  return { config, sources, problems, files, sessionsOff: sessionsOffOf(projectFile) }
}
