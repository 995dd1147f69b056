/**
 * Is a path in the git index? Read from `.git/index` itself, so the hooks never start a git process
 * for it (a process costs more than a whole hook run). Only the index's opening is read: entries are
 * sorted by name and the paths we ask about start with a dot, so the answer comes within a few entries.
 * Formats 2, 3 and 4 and SHA-1 and SHA-256 repositories are read; anything else (a split or sparse
 * index, an unknown version, a damaged file) answers undefined and the caller asks git.
 */
import { type FileHandle, open, readFile, readdir } from '../shared/fsp.js'
import { join } from 'node:path'

/** The first read: the entries that matter are at the start; later reads grow the window fourfold. */
const FIRST_READ = 4 * 1024

/** The index file as a growing window: `need(n)` makes sure `n` bytes from the start are loaded. */
class Window {
  buf = Buffer.alloc(0)
  private ended = false

  constructor(private readonly fh: FileHandle) {}

  async need(n: number): Promise<boolean> {
    while (this.buf.length < n && !this.ended) {
      const more = Buffer.alloc(Math.max(this.buf.length === 0 ? FIRST_READ : this.buf.length * 3, n - this.buf.length))
      const { bytesRead } = await this.fh.read(more, 0, more.length, this.buf.length)
      if (bytesRead === 0) this.ended = true
      this.buf = Buffer.concat([this.buf, more.subarray(0, bytesRead)])
    }
    return this.buf.length >= n
  }
}

/** 32 in a SHA-256 repository, else 20. */
export async function hashBytes(gitDir: string): Promise<number> {
  // A worktree's git dir is <common>/worktrees/<name>: its config is two folders up.
  for (const dir of [gitDir, join(gitDir, '..'), join(gitDir, '..', '..')]) {
    try {
      const config = await readFile(join(dir, 'config'), 'utf8')
      return /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? 32 : 20
    } catch {
      // a worktree's git dir has no config of its own: the common one is tried next
    }
  }
  return 20
}

/** One entry of the index: its path, mode, object name and the stat data git compares a file with. */
export interface IndexEntry {
  name: Buffer
  mode: number
  oid: string
  ctimeS: number
  mtimeS: number
  mtimeNs: number
  size: number
}

/**
 * Calls `visit` with each entry in name order until it answers true (stop). Resolves 'done' or 'stopped';
 * undefined when the index cannot be read here (split index, unknown version, damaged file); null when
 * there is no index yet.
 */
export async function walkIndex(gitDir: string, visit: (e: IndexEntry) => boolean): Promise<'done' | 'stopped' | null | undefined> {
  try {
    // A split index keeps most entries in a shared file: leave that to git.
    if ((await readdir(gitDir)).some((n) => n.startsWith('sharedindex.'))) return undefined
  } catch {
    return undefined
  }
  let fh: FileHandle
  try {
    fh = await open(join(gitDir, 'index'), 'r')
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined
  }
  try {
    const w = new Window(fh)
    if (!(await w.need(12)) || w.buf.toString('latin1', 0, 4) !== 'DIRC') return undefined
    const version = w.buf.readUInt32BE(4)
    const count = w.buf.readUInt32BE(8)
    if (version < 2 || version > 4) return undefined
    const hash = await hashBytes(gitDir)
    const fixed = 40 + hash + 2 // stat data, object name, flags
    let pos = 12
    let previous: Buffer = Buffer.alloc(0)
    for (let i = 0; i < count; i++) {
      if (!(await w.need(pos + fixed + 2))) return undefined
      const entry = pos
      const flags = w.buf.readUInt16BE(pos + fixed - 2)
      let at = pos + fixed
      if (flags & 0x4000) {
        if (version < 3) return undefined
        at += 2 // extended flags
      }
      let name: Buffer
      if (version === 4) {
        // The name is the previous one less `strip` bytes at its end, plus a NUL-terminated suffix.
        let strip = 0
        let b: number
        let first = true
        do {
          if (!(await w.need(at + 1))) return undefined
          b = w.buf[at++]!
          strip = first ? b & 0x7f : ((strip + 1) << 7) | (b & 0x7f)
          first = false
        } while (b & 0x80)
        let end = w.buf.indexOf(0, at)
        while (end === -1) {
          if (!(await w.need(w.buf.length + 1))) return undefined
          end = w.buf.indexOf(0, at)
        }
        if (strip > previous.length) return undefined
        name = Buffer.concat([previous.subarray(0, previous.length - strip), w.buf.subarray(at, end)])
        pos = end + 1
      } else {
        let len = flags & 0x0fff
        if (len === 0x0fff) {
          let end = w.buf.indexOf(0, at)
          while (end === -1) {
            if (!(await w.need(w.buf.length + 1))) return undefined
            end = w.buf.indexOf(0, at)
          }
          len = end - at
        }
        if (!(await w.need(at + len))) return undefined
        name = Buffer.from(w.buf.subarray(at, at + len))
        // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
        pos += (at - pos + len + 8) & ~7
      }
      previous = name
      const b = w.buf
      const stop = visit({
        name,
        mode: b.readUInt32BE(entry + 24),
        oid: b.toString('hex', entry + 40, entry + 40 + hash),
        ctimeS: b.readUInt32BE(entry),
        mtimeS: b.readUInt32BE(entry + 8),
        mtimeNs: b.readUInt32BE(entry + 12),
        size: b.readUInt32BE(entry + 36),
      })
      if (stop) return 'stopped'
    }
    return 'done'
  } catch {
    return undefined
  } finally {
    await fh.close().catch(() => undefined)
  }
}

/** A directory entry of a sparse index that may stand for `target`. */
export function sparseCovers(e: IndexEntry, target: Buffer): boolean {
  return (e.mode & 0o170000) === 0o040000 && target.subarray(0, e.name.length).equals(e.name)
}

/** True or false when the index says; undefined when it cannot be read here. */
export async function trackedInIndex(gitDir: string, relPath: string): Promise<boolean | undefined> {
  const target = Buffer.from(relPath)
  let answer: boolean | undefined = false
  const walked = await walkIndex(gitDir, (e) => {
    const order = Buffer.compare(e.name, target)
    if (order === 0) answer = true
    // A directory entry of a sparse index may stand for the path: leave that to git.
    else if (sparseCovers(e, target)) answer = undefined
    else if (order < 0) return false
    return true // found, or sorted by name: the path would have come by now
  })
  if (walked === null) return false // no index yet: nothing is tracked
  return walked === undefined ? undefined : answer
}
