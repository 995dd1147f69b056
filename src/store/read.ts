/**
 * Reading the store's own files: never through a symlink, never waiting on a FIFO or device, only this
 * user's files, and never throwing for a missing or broken file. Files of a project's `.bookmark/` are read
 * only when their seal is valid (trust/mac.ts). Apart from files.ts (the writes) so that a hook which only
 * reads does not load the redactor.
 */
import { lstatOrNone, ownUid, readRegularFile } from '../shared/fsp.js'
import { type Seal, unsealJson } from '../trust/mac.js'

/**
 * Reads a file of the store as text: not through a symlink (O_NOFOLLOW: a link planted in the store is an
 * error, never a way to read a file elsewhere), not a FIFO or anything else that could block, not another
 * user's file.
 */
export async function readStoreFile(path: string): Promise<string> {
  return readRegularFile(path, { ownUid: ownUid() })
}

export type ReadJson<T> = { ok: true; value: T; again?: unknown } | { ok: false; missing: boolean; reason: string; untrusted?: boolean }

/**
 * Reads and parses our own JSON file; a missing or broken file is reported, never thrown. With `seal`, a file
 * whose seal is missing or wrong is reported as `untrusted` and its content is not parsed. `parses` 2: `again` is a
 * second parse of the same text, which stays as read while the caller changes `value`.
 */
export async function readJson<T>(path: string, guard: (v: unknown) => v is T, seal?: Seal, parses: 1 | 2 = 1): Promise<ReadJson<T>> {
  let text: string
  try {
    // Most files asked for are often absent (configuration, a new session's state): no error object for that.
    if ((await lstatOrNone(path)) === undefined) return { ok: false, missing: true, reason: 'missing' }
    text = await readStoreFile(path)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ELOOP') return { ok: false, missing: false, reason: `${path} is a symbolic link: not followed`, untrusted: true }
    if (code === 'ENOTREG' || code === 'EFOREIGN') return { ok: false, missing: false, reason: (e as Error).message, untrusted: true }
    return { ok: false, missing: code === 'ENOENT', reason: code === 'ENOENT' ? 'missing' : String((e as Error).message) }
  }
  if (seal) {
    const opened = unsealJson(seal, path, text)
    if (!opened.ok) return { ok: false, missing: false, reason: `${path}: ${opened.reason}`, untrusted: true }
    text = opened.json
  }
  try {
    const value: unknown = JSON.parse(text)
    if (!guard(value)) return { ok: false, missing: false, reason: `${path}: unexpected shape` }
    return parses === 2 ? { ok: true, value, again: JSON.parse(text) as unknown } : { ok: true, value }
  } catch (e) {
    return { ok: false, missing: false, reason: `${path}: ${(e as Error).message}` }
  }
}
