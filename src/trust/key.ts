/**
 * The per-user secret that tells this user's store files from everything else: `<bookmark home>/key`, 32
 * random bytes as hex, private (0600) in the private home. A project's `.bookmark/` can arrive with a clone,
 * a tarball or a copied folder; only files sealed with this key are read from it (mac.ts). The key also names
 * each project's machine-local folder in the home (`projectId`), so a folder name never holds a project path
 * (which can look like a token) and no repository can guess it.
 */
import { join } from 'node:path'
import { lstatOrNone, ownUid, readRegularFile } from '../shared/fsp.js'
import { hmacSha256Hex } from './sha256.js'

export const KEY_FILE = 'key'
const KEY_TEXT = /^([0-9a-f]{64})\n?$/

/** Keys read in this process, by home: a hook asks for it several times, and a long-lived server keeps it. */
const keys = new Map<string, Buffer>()

export const keyPath = (home: string): string => join(home, KEY_FILE)

/**
 * This user's key, or undefined when there is none yet (nothing was ever captured with this home) or it is not
 * usable: not a regular file, another user's, or not 64 hex digits (`keyProblem` says which). Never creates it.
 */
export async function readKey(home: string): Promise<Buffer | undefined> {
  const known = keys.get(home)
  if (known) return known
  try {
    const m = KEY_TEXT.exec(await readRegularFile(keyPath(home), { ownUid: ownUid() }))
    if (!m) return undefined
    const key = Buffer.from(m[1]!, 'hex')
    keys.set(home, key)
    return key
  } catch {
    return undefined
  }
}

/** Why the key of `home` cannot be used; undefined when it can or there is none yet. */
export async function keyProblem(home: string): Promise<string | undefined> {
  const s = await lstatOrNone(keyPath(home)).catch(() => undefined)
  if (s === undefined) return undefined
  if (await readKey(home)) return undefined
  const uid = ownUid()
  if (!s.isFile()) return `${keyPath(home)} is not a regular file`
  if (uid !== undefined && s.uid !== uid) return `${keyPath(home)} belongs to another user (uid ${s.uid})`
  return `${keyPath(home)} does not hold a key (64 hex digits)`
}

/** The name of a project's folder in the bookmark home: a keyed hash of its root path (32 hex digits). */
export function projectId(key: Uint8Array, root: string): string {
  return hmacSha256Hex(key, Buffer.from(`bookmark project\0${root}`, 'utf8')).slice(0, 32)
}

/** Forgets the keys read (tests that remove a home and make a new one in the same process). */
export function forgetKeys(): void {
  keys.clear()
}
