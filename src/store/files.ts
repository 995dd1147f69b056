/**
 * The low-level writes and reads every stored file goes through: atomic, private (0600 in 0700
 * folders), and redacted. Nothing else in the code base writes to the store. Store files are derived
 * from transcripts and are not flushed to disk one by one (atomic.ts says why); files people write
 * through us (configuration, the setup record) ask for `durable`.
 */
import { lstat, lstatOrNone, mkdir, ownUid } from '../shared/fsp.js'
import { type Seal, sealJson } from '../trust/mac.js'
import { atomicWrite } from './atomic.js'
import { type KnownRedacted, redact, redactDeep } from '../redact/secrets.js'
import { StoreEntryError, SymlinkRefused } from '../shared/errors.js'

export const FILE_MODE = 0o600
export const DIR_MODE = 0o700

/**
 * Creates a store folder; refuses one that is a symlink (it could lead anywhere) or not a folder. A folder
 * already there (every capture after a project's first) costs one lstat, where `mkdir -p` costs three calls.
 */
export async function ensureDir(path: string): Promise<void> {
  let found = await lstatOrNone(path)
  if (found === undefined) {
    await mkdir(path, { recursive: true, mode: DIR_MODE })
    found = await lstat(path)
  }
  if (found.isSymbolicLink()) throw new SymlinkRefused(`${path} is a symbolic link: the store never follows links (remove it)`)
  if (!found.isDirectory()) throw new StoreEntryError(`${path} is not a folder (the store keeps its files in a folder there): move it away`)
  const uid = ownUid()
  // Another user's folder: they could replace what we write there, and read it.
  if (uid !== undefined && found.uid !== uid)
    throw new StoreEntryError(`${path} belongs to another user (uid ${found.uid}): bookmark writes only into its own folders (move it away)`)
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
  /** The value holds `around`, which redactDeep made, and is redacted around it (`redactAround`). */
  around?: object
  /** A file of a project's `.bookmark/`: sealed with this user's key (trust/mac.ts), so that it is read back. */
  seal?: Seal
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)

/**
 * `redactDeep(value)` for a value built around parts of `base`, which `redactDeep` made: the objects of
 * `base` (its own and those one level inside them: the records a snapshot takes from the state) are kept as
 * they are, only the rest is walked. `redactDeep` gives its own output back unchanged (the premise of
 * `known`), so the result is the same, without walking a second time what the state's redaction walked.
 * Keys of `base`'s dictionaries and `fieldNames` (field names the caller's code wrote, holding no data) are
 * not redacted again either: each redaction is a pass of every rule. `alsoClean`: objects the caller built only
 * of such parts and its own constant words (a file record of `base` with its ledger mark), kept as they are too.
 * `strings`: long strings of `base` (redactOver's `long`), which the value copies into objects of its own (a
 * snapshot's plan and task texts): kept under keys that name no secret (KnownRedacted.strings).
 */
export function redactAround<T>(value: T, base: object, fieldNames: Iterable<string> = [], alsoClean: Iterable<object> = [], strings?: ReadonlySet<string>): T {
  const clean = new Set<object>(alsoClean)
  const keys = new Set(fieldNames)
  for (const v of Object.values(base)) {
    if (v === null || typeof v !== 'object') continue
    clean.add(v)
    if (isPlain(v)) for (const k of Object.keys(v)) keys.add(k)
    for (const w of Object.values(v)) if (w !== null && typeof w === 'object') clean.add(w)
  }
  // The value with each clean object replaced by a symbol (which redactDeep passes through), redacted, then filled back.
  const holes = new Map<symbol, object>()
  const cut = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v
    if (clean.has(v)) {
      const hole = Symbol('redacted')
      holes.set(hole, v)
      return hole
    }
    if (Array.isArray(v)) return v.map(cut)
    return isPlain(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)])) : v
  }
  const fill = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || clean.has(v)) return
    const items: Record<string | number, unknown> | undefined = Array.isArray(v) ? (v as unknown[] as Record<number, unknown>) : isPlain(v) ? v : undefined
    if (!items) return
    for (const k of Object.keys(items)) {
      const x = items[k]
      if (typeof x === 'symbol') items[k] = holes.get(x) ?? x
      else fill(x)
    }
  }
  const out = redactDeep(cut(value), { fields: new Map(), keys, items: new Set(), ...(strings ? { strings } : {}) })
  fill(out)
  return out as T
}

export async function writeJson(path: string, value: unknown, options: WriteOptions = {}): Promise<void> {
  const redacted = options.redacted === true ? value : options.around !== undefined ? redactAround(value, options.around) : redactDeep(value, options.known)
  const json = `${JSON.stringify(redacted, null, options.compact === true ? undefined : 2)}\n`
  await atomicWrite(path, options.seal ? sealJson(options.seal, path, json) : json, { mode: FILE_MODE, durable: options.durable === true })
}

export async function writeText(path: string, text: string, options: WriteOptions = {}): Promise<void> {
  await atomicWrite(path, options.redacted === true ? text : redact(text), { mode: FILE_MODE, durable: options.durable === true })
}

export { isObject } from '../shared/json.js'
export { type ReadJson, readJson, readStoreFile } from './read.js'
