/**
 * `<bookmark home>/setup-state.json`: per settings file, what setup created there (the file, its
 * folders, the `hooks` key, event arrays, the permission rules and the `permissions` / `allow` that held
 * them, the whitespace of containers it filled), so uninstall
 * leaves the file as it was before setup.
 */
import { rmdir, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { ensureDir, readJson, writeJson } from '../store/files.js'
import { withLock } from '../store/lock.js'
import { isObject } from '../shared/json.js'
import type { Created } from './plan.js'
import type { TomlCreated } from './codex.js'

export interface SetupRecord {
  created: Created
  /** Folders setup created for the file, outermost first. */
  createdDirs: string[]
  node: string
  entry: string
  /** When setup last changed the file (ISO). */
  at: string
  /** Codex CLI (the record of its hooks.json): what setup changed in config.toml next to it. */
  codex?: TomlCreated
}

export interface SetupState {
  version: 1
  settings: Record<string, SetupRecord>
}

export const stateFile = (bookmarkHome: string): string => join(bookmarkHome, 'setup-state.json')

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string')

function isCreated(v: unknown): v is Created {
  return (
    isObject(v) &&
    typeof v.file === 'boolean' &&
    typeof v.hooks === 'boolean' &&
    isStrings(v.events) &&
    isObject(v.interiors) &&
    Object.values(v.interiors).every((s) => typeof s === 'string' && /^[ \t\r\n]*$/.test(s)) &&
    // Records written before setup added the permission rule have none of these three.
    (v.permissions === undefined || typeof v.permissions === 'boolean') &&
    (v.allow === undefined || typeof v.allow === 'boolean') &&
    (v.rules === undefined || isStrings(v.rules))
  )
}

function isRecord(v: unknown): v is SetupRecord {
  return (
    isObject(v) && isCreated(v.created) && isStrings(v.createdDirs) && typeof v.node === 'string' && typeof v.entry === 'string' && typeof v.at === 'string'
  )
}

function isState(v: unknown): v is SetupState {
  return isObject(v) && v.version === 1 && isObject(v.settings)
}

/** The record for one settings file; a broken state file counts as none (uninstall then works from the file alone). */
export async function readRecord(bookmarkHome: string, settingsPath: string): Promise<SetupRecord | undefined> {
  const r = await readJson(stateFile(bookmarkHome), isState)
  if (!r.ok) return undefined
  const rec = r.value.settings[settingsPath]
  return isRecord(rec) ? rec : undefined
}

/** Read-modify-write of one record under the state lock; `undefined` removes it (and the file when empty). */
export async function updateRecord(
  bookmarkHome: string,
  settingsPath: string,
  change: (old: SetupRecord | undefined) => SetupRecord | undefined,
): Promise<void> {
  const file = stateFile(bookmarkHome)
  const probe = await readJson(file, isState)
  // Nothing recorded and nothing to record: do not create the bookmark home just for that.
  if (!probe.ok && probe.missing && change(undefined) === undefined) return
  await ensureDir(bookmarkHome)
  let emptied = false
  await withLock(join(bookmarkHome, 'setup-state.lock'), async () => {
    const r = await readJson(file, isState)
    const settings: Record<string, SetupRecord> = {}
    if (r.ok) for (const [k, v] of Object.entries(r.value.settings)) if (isRecord(v)) settings[k] = v
    const old = settings[settingsPath]
    const next = change(old)
    if (next) settings[settingsPath] = next
    else delete settings[settingsPath]
    if (Object.keys(settings).length === 0) {
      if (r.ok || !r.missing) await unlink(file).catch(() => undefined)
      emptied = true
      return
    }
    await writeJson(file, { version: 1, settings } satisfies SetupState, { durable: true }) // uninstall depends on it
  })
  // A bookmark home that only ever held this state (setup created it) goes with it.
  if (emptied) await rmdir(bookmarkHome).catch(() => undefined)
}
