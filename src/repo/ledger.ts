/**
 * What git says now of the files a session changed, read from `.git` itself (index, objects, reflog) and the
 * working tree: no git process. Only the ledger's paths are looked at (at most LEDGER_CHECK_CAP of them): the
 * index is read up to the last of them, HEAD's tree along their folders, and a file is hashed only when its
 * stat differs from its index entry, as git itself does. snapshot/ledger.ts decides the marks.
 */
import { join } from 'node:path'
import { crypto } from '../shared/builtin.js'
import { type FileHandle, lstatOrNone, open, readFile, statOrNone } from '../shared/fsp.js'
import type { LedgerFacts, PathFacts } from '../snapshot/ledger.js'
import { type GitInfo, commonDir, gitDir } from './git.js'
import { type IndexEntry, hashBytes, sparseCovers, walkIndex } from './git-index.js'
import { ObjectReader } from './git-objects.js'

const ZERO = /^0+$/
/** A file is hashed only up to this size; a larger one whose stat moved is left unmarked. */
const HASH_LIMIT = 8 * 1024 * 1024

/** The stat of a working-tree file matches its index entry (git's own test, less the racy case, which is hashed). */
function statMatches(e: IndexEntry, s: { size: number; mtimeMs: number; ctimeMs: number; mtimeNs?: bigint }, indexMtimeS: number): boolean {
  const mtimeS = Math.floor(s.mtimeMs / 1000)
  if (s.size % 2 ** 32 !== e.size || mtimeS !== e.mtimeS || Math.floor(s.ctimeMs / 1000) !== e.ctimeS) return false
  // Written in the same second as the index: the index cannot tell a later write from this one.
  return mtimeS < indexMtimeS
}

/** The blob id git would give the bytes of `path`. */
async function blobId(path: string, sha256: boolean): Promise<string | undefined> {
  try {
    const data = await readFile(path)
    return crypto()
      .createHash(sha256 ? 'sha256' : 'sha1')
      .update(`blob ${data.length}\0`)
      .update(data)
      .digest('hex')
  } catch {
    return undefined
  }
}

/** The commit `ref`'s reflog says it was at `sinceS` (unix seconds): where the branch stood when the session began. */
async function commitAt(logFile: string, sinceS: number): Promise<string | null | undefined> {
  let text: string
  let whole: boolean
  let fh: FileHandle | undefined
  try {
    fh = await open(logFile, 'r')
    const { size } = await fh.stat()
    // The tail holds the session's entries; the whole file only when the session is older than the tail.
    const want = Math.min(size, 64 * 1024)
    const buf = Buffer.alloc(want)
    await fh.read(buf, 0, want, size - want)
    text = buf.toString('utf8')
    whole = want === size
    if (!whole) {
      const firstLine = text.slice(text.indexOf('\n') + 1).split('\n', 1)[0] ?? ''
      const words = firstLine.split('\t', 1)[0]!.split(' ')
      if (Number(words[words.length - 2]) > sinceS) {
        const all = Buffer.alloc(size)
        await fh.read(all, 0, size, 0)
        text = all.toString('utf8')
        whole = true
      } else text = text.slice(text.indexOf('\n') + 1)
    }
  } catch {
    return undefined
  } finally {
    await fh?.close().catch(() => undefined)
  }
  let at: string | null | undefined
  let firstSeen = true
  for (const line of text.split('\n')) {
    // `<old> <new> <name> <<email>> <seconds> <zone>\t<message>`, read by position (a regex here was the slow part).
    const tab = line.indexOf('\t')
    const head = tab < 0 ? line : line.slice(0, tab)
    const message = tab < 0 ? '' : line.slice(tab + 1)
    const words = head.split(' ')
    const [old, now] = words
    const ts = words[words.length - 2]
    if (old === undefined || now === undefined || ts === undefined || !/^\d+$/.test(ts) || old.length < 40 || now.length !== old.length) continue
    // The reflog keeps whole seconds: an entry of the second the session began is taken for the session's (a
    // quick session commits within it; a commit just before a session, in the same second, is rarer).
    if (Number(ts) < sinceS) at = now
    else if (firstSeen && at === undefined && whole) {
      // The first entry is after the session began: the branch was made since (from its start point) or is new.
      at = ZERO.test(old) ? (message.startsWith('branch:') ? now : null) : old
    }
    firstSeen = false
  }
  return at
}

/**
 * The facts of `paths` (project-relative, `/`-separated) in the repository at `root`, or undefined when it is
 * no repository or its index or HEAD cannot be read here. `since`: when the session began (ISO time).
 */
export async function ledgerFacts(root: string, git: GitInfo, paths: string[], since: string | undefined): Promise<LedgerFacts | undefined> {
  if (paths.length === 0 || git.head === undefined) return undefined
  const dir = await gitDir(root)
  if (dir === undefined) return undefined
  const common = (await commonDir(dir)) ?? dir
  const hash = await hashBytes(common)
  const objects = new ObjectReader(join(common, 'objects'), hash)

  const wanted = new Map(paths.map((p) => [Buffer.from(p).toString('latin1'), p]))
  const last = [...paths].map((p) => Buffer.from(p)).sort(Buffer.compare)[paths.length - 1]!
  const index = new Map<string, IndexEntry | 'sparse'>()
  const walked = await walkIndex(dir, (e) => {
    const name = wanted.get(e.name.toString('latin1'))
    if (name !== undefined) index.set(name, e)
    else if ((e.mode & 0o170000) === 0o040000) for (const p of paths) if (sparseCovers(e, Buffer.from(p))) index.set(p, 'sparse')
    return Buffer.compare(e.name, last) > 0
  })
  if (walked === undefined) return undefined
  const indexMtimeS = Math.floor(((await statOrNone(join(dir, 'index')))?.mtimeMs ?? 0) / 1000)

  const headTree = await objects.commitTree(git.head)
  if (headTree === undefined) return undefined
  // Where the branch stood when the session began: read only for a path whose change is no longer in the working tree.
  let startTree: Promise<string | null | undefined> | undefined
  const treeAtStart = (): Promise<string | null | undefined> => {
    startTree ??= (async () => {
      const sinceMs = since === undefined ? NaN : Date.parse(since)
      const log = git.branch !== undefined ? join(common, 'logs', 'refs', 'heads', git.branch) : join(dir, 'logs', 'HEAD')
      const start = Number.isNaN(sinceMs) ? undefined : await commitAt(log, Math.floor(sinceMs / 1000))
      return start === undefined || start === null ? start : objects.commitTree(start)
    })()
    return startTree
  }

  const out: Record<string, PathFacts> = {}
  for (const path of paths) {
    const e = index.get(path)
    if (e === 'sparse') continue
    const inHead = await objects.entry(headTree, path)
    if (inHead === undefined) continue
    const file = join(root, path)
    const s = await lstatOrNone(file)
    const exists = s !== undefined && !s.isDirectory()
    let dirty: boolean | undefined
    if (inHead === null)
      dirty = exists || e !== undefined // untracked, or added to the index
    else if (e === undefined || e.oid !== inHead.oid)
      dirty = true // deleted from the index, or a change staged
    else if (!exists) dirty = true
    else if (s!.isSymbolicLink()) continue
    else if (s!.size % 2 ** 32 !== e.size) dirty = true
    else if (statMatches(e, s!, indexMtimeS)) dirty = false
    else if (s!.size > HASH_LIMIT)
      continue // same size, other stat: only its bytes could tell, too many to read here
    else {
      const id = await blobId(file, hash === 32)
      if (id === undefined) continue
      dirty = id !== e.oid
    }
    const facts: PathFacts = { exists, dirty }
    const start = dirty ? undefined : await treeAtStart()
    if (start !== undefined) {
      const before = start === null ? null : await objects.entry(start, path)
      if (before !== undefined) facts.changedSinceStart = (before?.oid ?? null) !== (inHead?.oid ?? null)
    }
    out[path] = facts
  }
  return { ...(git.branch !== undefined ? { branch: git.branch } : {}), paths: out }
}
