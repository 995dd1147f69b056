/**
 * The low-level writes and reads every stored file goes through: atomic, private (0600 in 0700
 * folders), and redacted. Nothing else in the code base writes to the store. Store files are derived
 * from transcripts and are not flushed to disk one by one (atomic.ts says why); files people write
 * through us (configuration, the setup record) ask for `durable`.
 */
import { lstat, mkdir } from '../shared/fsp.js'
import { atomicWrite } from './atomic.js'
import { type KnownRedacted, redact, redactDeep } from '../redact/secrets.js'
import { SymlinkRefused } from './read.js'

export const FILE_MODE = 0o600
export const DIR_MODE = 0o700

/** Creates a store folder; refuses one that is a symlink (it could lead anywhere). */
export async function ensureDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: DIR_MODE })
  if ((await lstat(path)).isSymbolicLink()) throw new SymlinkRefused(`${path} is a symbolic link: the store never follows links (remove it)`)
}

export interface WriteOptions {
  /** Flushed to disk before it replaces the old file (default false: see above). */
  durable?: boolean
  /** Strings read back from what an earlier write stored: already redacted, not redacted again. */
  known?: KnownRedacted
  /**
   * The caller built the whole value from redacted parts (and its own fixed text): written as it is. Used
   * where one redacted copy of a snapshot feeds several files, and for files that grow by an entry at a
   * time (index, trail, registry): what was read back from the store's own file was redacted when it was
   * written (the premise of `known` too), so only the new entry is redacted.
   */
  redacted?: boolean
  /** One line instead of indented: for files only the program reads (the cursor state, hundreds of KB). */
  compact?: boolean
}

export async function writeJson(path: string, value: unknown, options: WriteOptions = {}): Promise<void> {
  await atomicWrite(path, `${JSON.stringify(options.redacted === true ? value : redactDeep(value, options.known), null, options.compact === true ? undefined : 2)}\n`, { mode: FILE_MODE, durable: options.durable === true })
}

export async function writeText(path: string, text: string, options: WriteOptions = {}): Promise<void> {
  await atomicWrite(path, options.redacted === true ? text : redact(text), { mode: FILE_MODE, durable: options.durable === true })
}

export { isObject } from '../shared/json.js'
export { type ReadJson, SymlinkRefused, readJson, readStoreFile } from './read.js'
