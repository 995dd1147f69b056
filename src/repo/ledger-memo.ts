/**
 * The ledger check's answer (ledger.ts) kept in the session's cursor head for the next capture: it holds while
 * HEAD, git's index, the branch's reflog and every checked file's stat are as they were, so a turn that changed
 * nothing git looks at reads no index and no object (and loads neither that code nor node:zlib). Made only of
 * the snapshot's own paths (redacted), a commit id, the session's start and stat numbers.
 */
import { join } from 'node:path'
import type { LedgerFacts, PathFacts } from '../snapshot/ledger.js'
import { type Stamp, fileStampNow, sameStamp } from '../store/fs.js'
import { type GitInfo, commonDir, gitDir } from './git.js'

export interface LedgerMemo {
  /** HEAD, the session's start, and the stamps of git's index and of the reflog the check reads. */
  key: [string, string | null, Stamp, Stamp]
  /** Each checked path with its stamp then and its facts (null: left unmarked). */
  files: [string, Stamp, PathFacts | null][]
}

/** The key of a check of the repository at `root` now; undefined outside a repository or without a HEAD. */
export async function ledgerKey(root: string, git: GitInfo, since: string | undefined): Promise<LedgerMemo['key'] | undefined> {
  if (git.head === undefined) return undefined
  const dir = await gitDir(root)
  if (dir === undefined) return undefined
  const common = (await commonDir(dir)) ?? dir
  // The reflog ledger.ts reads for where the branch stood when the session began.
  const log = git.branch !== undefined ? join(common, 'logs', 'refs', 'heads', git.branch) : join(dir, 'logs', 'HEAD')
  return [git.head, since ?? null, fileStampNow(join(dir, 'index')), fileStampNow(log)]
}

export const pathStamps = (root: string, paths: string[]): Stamp[] => paths.map((p) => fileStampNow(join(root, p)))

const sameKey = (a: unknown, b: LedgerMemo['key']): boolean =>
  Array.isArray(a) && a.length === 4 && a[0] === b[0] && a[1] === b[1] && (a[2] === b[2] || sameStamp(a[2], b[2])) && (a[3] === b[3] || sameStamp(a[3], b[3]))

/** The facts `memo` holds for `paths` when its key and every path's stamp are the same now; else undefined. */
export function recallFacts(memo: unknown, key: LedgerMemo['key'], paths: string[], stamps: Stamp[], branch: string | undefined): LedgerFacts | undefined {
  if (typeof memo !== 'object' || memo === null) return undefined
  const m = memo as Partial<LedgerMemo>
  if (!sameKey(m.key, key) || !Array.isArray(m.files)) return undefined
  const kept = new Map<string, [string, Stamp, PathFacts | null]>()
  for (const f of m.files) if (Array.isArray(f) && typeof f[0] === 'string') kept.set(f[0], f)
  const out: Record<string, PathFacts> = {}
  for (let i = 0; i < paths.length; i++) {
    const f = kept.get(paths[i]!)
    const now = stamps[i]!
    if (f === undefined || !(f[1] === now || sameStamp(f[1], now))) return undefined
    const facts = f[2]
    if (facts !== null && (typeof facts !== 'object' || typeof facts.exists !== 'boolean' || typeof facts.dirty !== 'boolean')) return undefined
    if (facts !== null) out[paths[i]!] = facts
  }
  return { ...(branch !== undefined ? { branch } : {}), paths: out }
}

/** What to keep of a check made with `key` and `stamps` (taken before it, so a file changed meanwhile misses). */
export function memoOf(key: LedgerMemo['key'], paths: string[], stamps: Stamp[], facts: LedgerFacts): LedgerMemo {
  return { key, files: paths.map((p, i) => [p, stamps[i]!, facts.paths[p] ?? null]) }
}
