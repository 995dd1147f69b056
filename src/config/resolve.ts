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
}

export interface ConfigFile {
  version: number
  values: Record<string, unknown>
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

async function readValues(path: string, problems: string[]): Promise<Record<string, unknown>> {
  const r = await readJson(path, isConfigFile)
  if (r.ok) return r.value.values
  if (!r.missing) problems.push(`${path} ignored: ${r.reason}`)
  return {}
}

export async function resolveConfig(opts: { bookmarkHome: string; projectRoot?: string; env: NodeJS.ProcessEnv; flags?: Partial<Record<ConfigKey, unknown>> }): Promise<Resolved> {
  const problems: string[] = []
  const project = opts.projectRoot ? await projectConfigPath(opts.bookmarkHome, opts.projectRoot) : undefined
  const files = { global: globalConfigPath(opts.bookmarkHome), ...(project ? { project } : {}) }
  const layers: [Source, Record<string, unknown>, string][] = [
    ['global', await readValues(files.global, problems), files.global],
    ['project', files.project ? await readValues(files.project, problems) : {}, files.project ?? ''],
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
  if (config.staleRefuseHours < config.staleWarnHours) problems.push(`staleRefuseHours (${config.staleRefuseHours}) is below staleWarnHours (${config.staleWarnHours}): content that old is refused`)
  return { config, sources, problems, files }
}
