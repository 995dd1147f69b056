/**
 * Removing the temp files of writes that a killed process left behind. Only old ones: a fresh temp file
 * may belong to a write in progress right now.
 */
import { readdir, rm, stat } from '../shared/fsp.js'
import { join } from 'node:path'
import { TEMP_SUFFIX } from './atomic.js'

/** A temp file untouched for this long was left by a killed process. */
export const TEMP_AGE_MS = 10 * 60_000

/** Our temp files (`<name>.<pid>.<hex>.tmp`) and those of earlier versions, written with write-file-atomic (`<name>.json.<digits>`). */
export function isTempName(name: string): boolean {
  return TEMP_SUFFIX.test(name) || /(\.(json|md|log)|^\.gitignore)\.\d+$/.test(name)
}

export async function sweepTemps(dir: string, nowMs = Date.now()): Promise<number> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return 0
  }
  let removed = 0
  for (const name of names) {
    if (!isTempName(name)) continue
    const path = join(dir, name)
    try {
      if (nowMs - (await stat(path)).mtimeMs > TEMP_AGE_MS) {
        await rm(path, { force: true })
        removed++
      }
    } catch {
      // gone already
    }
  }
  return removed
}
