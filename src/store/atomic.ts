/**
 * Atomic file replacement that cannot leave half a file behind: the data goes to a new temp file next to
 * the target (created exclusively), is written completely (a short write on a full disk is an error, not
 * a success), synced unless the caller says the file need not survive a power cut, and renamed over the
 * target. Any failure removes the temp file.
 *
 * The rename replaces the target's directory entry: a symlink planted in the store is replaced, never
 * written through. (Settings files, which users often link from their dotfiles, ask for `follow`.)
 */
import { readFileSync, readlinkSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { randomHex } from '../shared/random.js'
import { chown, lstatOrNone, open, realpath, rename, stat, unlink } from '../shared/fsp.js'

export interface AtomicOptions {
  mode?: number
  /** Write to the file a symlink points to (settings.json), keeping its owner. Default: replace the link. */
  follow?: boolean
  /**
   * With `follow`: the text the target held when the caller read it (null: it did not exist). The target is
   * read again just before the rename; other content throws ChangedError and nothing is written.
   */
  expect?: string | null
  /**
   * Flush the data to the disk before the rename (default true). Without it the rename is still atomic
   * for every reader and for a killed process; only a power cut or kernel crash can then leave the
   * file empty or old. The store's own files, all derived from the transcript and read by code that
   * survives a damaged file, skip it: a capture's ten flushes would cost more than the rest of the
   * capture (docs/BENCHMARKS.md).
   */
  durable?: boolean
}

/** Temp files are `<target>.<pid>.<8 hex>.tmp`: recognisable, so a sweep can remove those a killed process left. */
export const TEMP_SUFFIX = /\.\d+\.[0-9a-f]{8}\.tmp$/

/** The file changed between the caller's read and the write that would have replaced it (`expect`). */
export class ChangedError extends Error {
  constructor(readonly path: string) {
    super(`${path} changed since it was read`)
  }
}

/**
 * Where a write through `path` lands: its links followed one by one, each relative one against the real
 * folder that holds it, so a dangling link gives the file it would create (realpath gives up there).
 */
export async function followLinks(path: string): Promise<string> {
  let p = resolve(path)
  for (let hops = 0; hops < 40; hops++) {
    const dir = await realpath(dirname(p)).catch(() => undefined)
    if (dir === undefined) return p // no such folder: nothing can be written there, the caller says so
    p = join(dir, basename(p))
    if (!(await lstatOrNone(p))?.isSymbolicLink()) return p
    p = resolve(dir, readlinkSync(p))
  }
  throw Object.assign(new Error(`${path}: too many levels of symbolic links`), { code: 'ELOOP' })
}

/**
 * Throws ChangedError unless `path` holds `expected` (null: does not exist). The content is compared, not a
 * stamp: file times move with the kernel's tick (milliseconds), so a same-size save in that tick keeps it.
 */
export async function assertUnchanged(path: string, expected: string | null): Promise<void> {
  let now: string | null
  try {
    now = readFileSync(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
    now = null
  }
  if (now !== expected) throw new ChangedError(path)
}

export async function atomicWrite(path: string, data: string | Buffer, options: AtomicOptions = {}): Promise<void> {
  let target = path
  let owner: { uid: number; gid: number } | undefined
  if (options.follow) {
    target = await followLinks(path)
    const s = await stat(target).catch(() => undefined)
    if (s) owner = { uid: s.uid, gid: s.gid }
  }
  const tmp = `${target}.${process.pid}.${randomHex(4)}.tmp`
  const mode = options.mode ?? 0o600
  const fh = await open(tmp, 'wx', mode)
  try {
    await fh.chmod(mode) // the umask may have narrowed or widened it
    await fh.writeFile(data)
    if (options.durable !== false) await fh.sync()
  } catch (e) {
    await fh.close().catch(() => undefined)
    await unlink(tmp).catch(() => undefined)
    throw e
  }
  await fh.close()
  try {
    if (owner && process.getuid?.() === 0) await chown(tmp, owner.uid, owner.gid).catch(() => undefined)
    if (options.follow && options.expect !== undefined) await assertUnchanged(target, options.expect) // then rename at once: the window left is microseconds
    await rename(tmp, target)
  } catch (e) {
    await unlink(tmp).catch(() => undefined)
    throw e
  }
}
