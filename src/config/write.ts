/**
 * Changing a config file (`bookmark config set/unset`): apart from resolve.ts, which every hook loads.
 */
import { join } from 'node:path'
import { ensureDir, readJson, writeJson } from '../store/files.js'
import { withLock } from '../store/lock.js'
import type { ConfigKey } from './keys.js'
import { CONFIG_VERSION, isConfigFile } from './resolve.js'

/** Sets or removes keys in one config file (global or project), under a lock, atomically. */
export async function updateConfigFile(path: string, set: Partial<Record<ConfigKey, number>>, unset: ConfigKey[]): Promise<void> {
  await ensureDir(join(path, '..'))
  await withLock(`${path}.lock`, async () => {
    const r = await readJson(path, isConfigFile)
    if (!r.ok && !r.missing) throw new Error(`${path} is not valid config JSON (${r.reason}); fix or delete it first`)
    const values = r.ok ? { ...r.value.values } : {}
    for (const [k, v] of Object.entries(set)) values[k] = v
    for (const k of unset) delete values[k]
    await writeJson(path, { version: CONFIG_VERSION, values }, { durable: true })
  })
}
