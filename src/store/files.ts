/**
 * The low-level writes and reads every stored file goes through: atomic, private (0600 in 0700
 * folders), and redacted. Nothing else in the code base writes to the store.
 */
import { lstat, mkdir } from '../shared/fsp.js'
import { atomicWrite } from './atomic.js'
import { redact, redactDeep } from '../redact/secrets.js'
import { SymlinkRefused } from './read.js'

export const FILE_MODE = 0o600
export const DIR_MODE = 0o700

/** Creates a store folder; refuses one that is a symlink (it could lead anywhere). */
export async function ensureDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: DIR_MODE })
  if ((await lstat(path)).isSymbolicLink()) throw new SymlinkRefused(`${path} is a symbolic link: the store never follows links (remove it)`)
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await atomicWrite(path, `${JSON.stringify(redactDeep(value), null, 2)}\n`, { mode: FILE_MODE })
}

export async function writeText(path: string, text: string): Promise<void> {
  await atomicWrite(path, redact(text), { mode: FILE_MODE })
}

export { isObject } from '../shared/json.js'
export { type ReadJson, SymlinkRefused, readJson, readStoreFile } from './read.js'
