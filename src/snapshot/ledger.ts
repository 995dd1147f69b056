/**
 * The file ledger against git: what each listed file is now (still uncommitted, committed, reverted, deleted since,
 * left on another branch), decided from the ledger's record and what git says of the path at capture. Pure: the
 * facts are read by src/repo/ledger.ts.
 */
import type { FileRecord, GitRecord } from '../extract/model.js'

export type FileMark = 'uncommitted' | 'committed' | 'reverted' | 'deleted' | 'other-branch'

/** How many of the most recently changed files are checked: each costs a stat, sometimes a hash. */
export const LEDGER_CHECK_CAP = 50

/** What git says of one path at capture. */
export interface PathFacts {
  /** In the working tree. */
  exists: boolean
  /** The working tree or the index differs from HEAD for this path (an untracked file differs too). */
  dirty: boolean
  /**
   * HEAD's entry differs from the one of the commit the branch was at when the session began: a commit since
   * (the session's, a subagent's, the user's) changed the path. Undefined when git's records do not say, and
   * for a dirty path (not needed).
   */
  changedSinceStart?: boolean
}

export interface LedgerFacts {
  /** The current branch (undefined when HEAD is detached). */
  branch?: string
  /** The checked paths; a path not here is left unmarked. */
  paths: Record<string, PathFacts>
}

/** A commit recorded in the transcript after `ts` (used when git's reflog cannot say). */
function committedAfter(git: GitRecord[], ts: string | undefined): boolean {
  return git.some((g) => g.event.kind === 'commit' && (ts === undefined || (g.ts !== undefined && g.ts >= ts)))
}

/** The mark of one file, or undefined when it is as the ledger lists it and there is nothing to add. */
export function fileMark(f: FileRecord, facts: PathFacts, branch: string | undefined, git: GitRecord[] = []): FileMark | undefined {
  // Claude Code records a detached HEAD as the branch `HEAD`: no branch to have left.
  const elsewhere = f.branch !== undefined && f.branch !== 'HEAD' && branch !== undefined && f.branch !== branch
  if (facts.dirty) {
    // A change is here: uncommitted, whichever branch it was made on (git carries it across a switch).
    if (facts.exists || f.op === 'deleted') return 'uncommitted'
    return elsewhere ? 'other-branch' : 'deleted'
  }
  // The working tree equals HEAD for this path.
  if (elsewhere) return 'other-branch'
  const committed = facts.changedSinceStart ?? committedAfter(git, f.lastTs)
  if (!facts.exists) {
    if (f.op === 'deleted') return committed ? 'committed' : undefined
    return 'deleted'
  }
  if (f.op === 'deleted') return 'reverted' // there again, as HEAD has it
  return committed ? 'committed' : 'reverted'
}

/** The files of a snapshot with their marks (a marked file is a copy; the others are the same objects). */
export function markFiles<T extends FileRecord>(files: T[], facts: LedgerFacts, git: GitRecord[]): (T & { now?: FileMark })[] {
  return files.map((f) => {
    const p = facts.paths[f.path]
    const now = p === undefined ? undefined : fileMark(f, p, facts.branch, git)
    return now === undefined ? f : { ...f, now }
  })
}

/** How many listed files still differ from HEAD (for "How the last session ended"). */
export function uncommittedCount(snapshot: { files: { now?: FileMark }[] }): number {
  return snapshot.files.filter((f) => f.now === 'uncommitted').length
}
