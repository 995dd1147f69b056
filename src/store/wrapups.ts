/**
 * Wrap-ups in a project's store: `.bookmark/wrapups/WRAP_<utc>_<hex>.json`, one file each, sealed with this
 * user's key like the snapshots (trust/mac.ts): a wrap-up that came with a clone, or was edited or renamed, is
 * never read back, so it can neither reach a restore nor pose as this user's milestone.
 */
import { join } from 'node:path'
import { isObject } from '../shared/json.js'
import { lstatOrNone, readdir } from '../shared/fsp.js'
import type { Wrapup } from '../memory/wrapup.js'
import { readJson } from './read.js'
import type { StoreReader } from './reader.js'
import type { ProjectStore } from './store.js'

export const WRAPUPS_DIR = 'wrapups'
/** `WRAP_<UTC yyyymmdd_hhmmss_mmm>_<4 hex>`: names sort by time. */
export const WRAPUP_ID = /^WRAP_\d{8}_\d{6}_\d{3}_[0-9a-f]{4}$/
/** Files tried, newest first, for one this user sealed: a bound on what a restore reads. */
const TRIED = 5

export const wrapupsDir = (store: StoreReader): string => join(store.layout.dir, WRAPUPS_DIR)

export function wrapupPath(store: StoreReader, id: string): string {
  if (!WRAPUP_ID.test(id)) throw new Error(`not a wrap-up id: ${id}`)
  return join(wrapupsDir(store), `${id}.json`)
}

function isWrapup(v: unknown): v is Wrapup {
  return (
    isObject(v) &&
    typeof v.version === 'number' &&
    typeof v.id === 'string' &&
    typeof v.createdAt === 'string' &&
    typeof v.summary === 'string' &&
    [v.decisions, v.discoveries, v.openThreads, v.files, v.commits].every(Array.isArray)
  )
}

/** Writes a wrap-up (already redacted: memory/wrapup.ts makeWrapup), sealed; returns its path. */
export async function saveWrapup(store: ProjectStore, w: Wrapup): Promise<string> {
  await store.ensure()
  const [{ ensureDir, writeJson }, { seal }] = await Promise.all([import('./files.js'), store.writable()])
  await ensureDir(wrapupsDir(store))
  const path = wrapupPath(store, w.id)
  await writeJson(path, w, { redacted: true, seal })
  return path
}

/** The newest wrap-up this user's bookmark wrote for the project; undefined when there is none. */
export async function latestWrapup(store: StoreReader): Promise<{ wrapup: Wrapup; path: string } | undefined> {
  await store.guard()
  const seal = await store.seal()
  if (!seal) return undefined
  const dir = wrapupsDir(store)
  const st = await lstatOrNone(dir).catch(() => undefined)
  if (!st?.isDirectory()) return undefined // absent, or a symlink: never followed
  const ids = (await readdir(dir).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.json') && WRAPUP_ID.test(n.slice(0, -5)))
    .map((n) => n.slice(0, -5))
    .sort()
    .reverse()
  for (const id of ids.slice(0, TRIED)) {
    const path = wrapupPath(store, id)
    const r = await readJson(path, isWrapup, seal)
    if (r.ok && r.value.id === id) return { wrapup: r.value, path }
  }
  return undefined
}

/** This user's wrap-ups of the project, of `session` when given (`bookmark forget`): their paths, newest first. */
export async function wrapupsOf(store: StoreReader, session?: string): Promise<string[]> {
  await store.guard()
  const seal = await store.seal()
  if (!seal) return []
  const dir = wrapupsDir(store)
  const st = await lstatOrNone(dir).catch(() => undefined)
  if (!st?.isDirectory()) return []
  const out: string[] = []
  for (const name of (await readdir(dir).catch(() => [] as string[])).sort().reverse()) {
    const id = name.slice(0, -5)
    if (!name.endsWith('.json') || !WRAPUP_ID.test(id)) continue
    const path = wrapupPath(store, id)
    const r = await readJson(path, isWrapup, seal)
    // A file that is not this user's (another key, an edit) was never read back: it is not ours to remove.
    if (r.ok && r.value.id === id && (session === undefined || r.value.session === session)) out.push(path)
  }
  return out
}
