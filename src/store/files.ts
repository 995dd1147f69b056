/**
 * The low-level writes and reads every stored file goes through: atomic, private (0600 in 0700
 * folders), and redacted. Nothing else in the code base writes to the store.
 */
import { constants } from 'node:fs'
import { lstat, mkdir, open } from 'node:fs/promises'
import { atomicWrite } from './atomic.js'
import { redact, redactDeep } from '../redact/secrets.js'

export const FILE_MODE = 0o600
export const DIR_MODE = 0o700

export class SymlinkRefused extends Error {}

/** Creates a store folder; refuses one that is a symlink (it could lead anywhere). */
export async function ensureDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: DIR_MODE })
  if ((await lstat(path)).isSymbolicLink()) throw new SymlinkRefused(`${path} is a symbolic link: the store never follows links (remove it)`)
}

/**
 * Reads a file of the store as text without following a symlink (O_NOFOLLOW): a link planted in the
 * store is an error, never a way to read a file elsewhere.
 */
export async function readStoreFile(path: string): Promise<string> {
  const fh = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW)
  try {
    return await fh.readFile('utf8')
  } finally {
    await fh.close()
  }
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await atomicWrite(path, `${JSON.stringify(redactDeep(value), null, 2)}\n`, { mode: FILE_MODE })
}

export async function writeText(path: string, text: string): Promise<void> {
  await atomicWrite(path, redact(text), { mode: FILE_MODE })
}

export type ReadJson<T> = { ok: true; value: T } | { ok: false; missing: boolean; reason: string }

/** Reads and parses our own JSON file; a missing or broken file is reported, never thrown. */
export async function readJson<T>(path: string, guard: (v: unknown) => v is T): Promise<ReadJson<T>> {
  let text: string
  try {
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

export { isObject } from '../shared/json.js'
