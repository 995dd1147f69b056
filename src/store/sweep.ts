/**
 * Removing the temp files of writes that a killed process left behind. Only old ones: a fresh temp file
 * may belong to a write in progress right now.
 */
import { readdir, removeFile, stat, statOrNone } from '../shared/fsp.js'
import { join } from 'node:path'
import { TEMP_SUFFIX } from './atomic.js'

/** A temp file untouched for this long was left by a killed process. */
export const TEMP_AGE_MS = 10 * 60_000

/** Our temp files (`<name>.<pid>.<hex>.tmp`) and those of earlier versions, written with write-file-atomic (`<name>.json.<digits>`). */
export function isTempName(name: string): boolean {
  return TEMP_SUFFIX.test(name) || /(\.(json|md|log)|^\.gitignore)\.\d+$/.test(name)
}

export async function sweepTemps(dir: string, nowMs = Date.now()): Promise<number> {
  return sweepOld(dir, TEMP_AGE_MS, nowMs, isTempName)
}

/** A code cache file (bin/bookmark.cjs): `<bundle file>.<size>-<mtime>-<inode>-<node>-<arch>.v8c` (`.v8` before). */
const CACHE_NAME = /^(.+\.cjs)\.[^/\\]+\.v8c?$/

/** A code cache of another build untouched for this long is not another install's in use: it is left over. */
export const STALE_CACHE_MS = 7 * 24 * 60 * 60_000

/**
 * Removes code caches of bundle files that this install does not have (other builds: each update leaves
 * its own, named after its chunk hashes) once they are a week old. A second install sharing the folder
 * writes its caches again at worst; the loader replaces a cache of a bundle file it has itself.
 */
export async function sweepStaleCaches(dir: string, bundles: string, nowMs = Date.now()): Promise<number> {
  return sweepOld(dir, STALE_CACHE_MS, nowMs, async (name) => {
    const bundle = CACHE_NAME.exec(name)?.[1]
    return bundle !== undefined && (await statOrNone(join(bundles, bundle))) === undefined
  })
}

/** Removes the files of `dir` that `pick` names and that were not modified for `ageMs`. */
async function sweepOld(dir: string, ageMs: number, nowMs: number, pick: (name: string) => boolean | Promise<boolean>): Promise<number> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return 0
  }
  let removed = 0
  for (const name of names) {
    const path = join(dir, name)
    try {
      if (!(await pick(name))) continue
      if (nowMs - (await stat(path)).mtimeMs > ageMs) {
        await removeFile(path)
        removed++
      }
    } catch {
      // gone already
    }
  }
  return removed
}
