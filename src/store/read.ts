/**
 * Reading the store's own files: never through a symlink, never throwing for a missing or broken file.
 * Apart from files.ts (the writes) so that a hook which only reads does not load the redactor.
 */
import { constants } from 'node:fs'
import { lstatOrNone, readFile } from '../shared/fsp.js'

export class SymlinkRefused extends Error {}

/**
 * Reads a file of the store as text without following a symlink (O_NOFOLLOW): a link planted in the
 * store is an error, never a way to read a file elsewhere.
 */
export async function readStoreFile(path: string): Promise<string> {
  return readFile(path, 'utf8', constants.O_RDONLY | constants.O_NOFOLLOW)
}

export type ReadJson<T> = { ok: true; value: T } | { ok: false; missing: boolean; reason: string }

/** Reads and parses our own JSON file; a missing or broken file is reported, never thrown. */
export async function readJson<T>(path: string, guard: (v: unknown) => v is T): Promise<ReadJson<T>> {
  let text: string
  try {
    // Most files asked for are often absent (configuration, a new session's state): no error object for that.
    if ((await lstatOrNone(path)) === undefined) return { ok: false, missing: true, reason: 'missing' }
    text = await readStoreFile(path)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ELOOP') return { ok: false, missing: false, reason: `${path} is a symbolic link: not followed` }
    return { ok: false, missing: code === 'ENOENT', reason: code === 'ENOENT' ? 'missing' : String((e as Error).message) }
  }
  try {
    const value: unknown = JSON.parse(text)
    if (!guard(value)) return { ok: false, missing: false, reason: `${path}: unexpected shape` }
    return { ok: true, value }
  } catch (e) {
    return { ok: false, missing: false, reason: `${path}: ${(e as Error).message}` }
  }
}
