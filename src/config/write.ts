/**
 * Changing a config file (`bookmark config set/unset`, `bookmark off|on`): apart from resolve.ts, which every hook loads.
 */
import { join } from 'node:path'
import { ensureDir, readJson, writeJson } from '../store/files.js'
import { withLock } from '../store/lock.js'
import { InputError } from '../shared/errors.js'
import { MAX_TARGETS, aliasesOf } from './aliases.js'
import type { ConfigKey } from './keys.js'
import { CONFIG_VERSION, type ConfigFile, isConfigFile, sessionsOffOf } from './resolve.js'

/** Most sessions one project keeps switched off: the file is read by every hook, so it stays small (oldest go first). */
export const SESSIONS_OFF_CAP = 200

export interface ConfigEdit {
  set?: Partial<Record<ConfigKey, number>>
  unset?: ConfigKey[]
  /** A session to switch off, and when. */
  sessionOff?: { id: string; at: string }
  /** A session to switch back on. */
  sessionOn?: string
  /** Targets added to aliases (name, target), and aliases removed (config/aliases.ts; the global file only). */
  aliasAdd?: [string, string][]
  aliasRemove?: string[]
}

/** Edits one config file (global or project), under a lock, atomically; what it does not change is kept. */
export async function editConfigFile(path: string, edit: ConfigEdit): Promise<void> {
  await ensureDir(join(path, '..'))
  await withLock(`${path}.lock`, async () => {
    const r = await readJson(path, isConfigFile)
    if (!r.ok && !r.missing) throw new Error(`${path} is not valid config JSON (${r.reason}); fix or delete it first`)
    const values = r.ok ? { ...r.value.values } : {}
    for (const [k, v] of Object.entries(edit.set ?? {})) values[k] = v
    for (const k of edit.unset ?? []) delete values[k]
    const sessions = sessionsOffOf(r.ok ? r.value : undefined)
    if (edit.sessionOn !== undefined) delete sessions[edit.sessionOn]
    if (edit.sessionOff) {
      delete sessions[edit.sessionOff.id] // re-added last: the newest survives the cap
      sessions[edit.sessionOff.id] = edit.sessionOff.at
    }
    const ids = Object.keys(sessions)
    for (const id of ids.slice(0, Math.max(0, ids.length - SESSIONS_OFF_CAP))) delete sessions[id]
    // Kept through every edit, changed only when asked.
    const aliases = aliasesOf(r.ok ? r.value.aliases : undefined)
    for (const name of edit.aliasRemove ?? []) {
      if (!aliases[name.toLowerCase()]) throw new InputError(`no alias "${name}" in ${path}`)
      delete aliases[name.toLowerCase()]
    }
    for (const [name, target] of edit.aliasAdd ?? []) {
      const list = aliases[name.toLowerCase()] ?? []
      if (!list.includes(target)) list.push(target)
      if (list.length > MAX_TARGETS) throw new InputError(`alias "${name}" would stand for more than ${MAX_TARGETS} projects`)
      aliases[name.toLowerCase()] = list
    }
    const file: ConfigFile = {
      version: CONFIG_VERSION,
      values,
      ...(Object.keys(sessions).length ? { sessionsOff: sessions } : {}),
      ...(Object.keys(aliases).length ? { aliases: { ...aliases } } : {}),
    }
    await writeJson(path, file, { durable: true })
  })
}

/** Sets or removes keys in one config file. */
export async function updateConfigFile(path: string, set: Partial<Record<ConfigKey, number>>, unset: ConfigKey[]): Promise<void> {
  await editConfigFile(path, { set, unset })
}
