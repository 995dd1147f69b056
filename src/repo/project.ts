/**
 * The project one hook run (or one command) works on: its root, found once, the paths of its store, and its
 * git branch and HEAD, read from `.git` the first time they are asked for and kept for the object's life.
 * A Stop that captures, prepares the next start and asks for the handoff needs git four times; it reads it
 * once. Opening one costs no I/O. Never kept across calls of the long-lived MCP server: each call opens its
 * own, so a branch switched between calls is seen.
 */
import { type ProjectLayout, projectLayout } from '../store/layout.js'
import { type GitInfo, readGitInfo } from './git.js'
import { findProjectRoot } from './root.js'
import type { LedgerFacts } from '../snapshot/ledger.js'
import { type LedgerMemo, ledgerKey, memoOf, pathStamps, recallFacts } from './ledger-memo.js'

export class Project {
  readonly layout: ProjectLayout
  #git: Promise<GitInfo> | undefined

  /** `root`: a project root already found (root.ts). */
  constructor(readonly root: string) {
    this.layout = projectLayout(root)
  }

  /** The branch and HEAD as git's files say, read on the first call and kept. */
  git(): Promise<GitInfo> {
    this.#git ??= readGitInfo(this.root)
    return this.#git
  }

  /**
   * What git says now of the ledger's `paths` (ledger.ts), with the branch and HEAD read above, and what to keep
   * for the next check; taken from `memo` (the last check's) when nothing it was made from changed (ledger-memo.ts).
   */
  async ledger(paths: string[], since: string | undefined, memo?: unknown): Promise<{ facts?: LedgerFacts; memo?: LedgerMemo }> {
    if (paths.length === 0) return {}
    const git = await this.git()
    const key = await ledgerKey(this.root, git, since)
    if (key === undefined) return {}
    const stamps = pathStamps(this.root, paths)
    const kept = recallFacts(memo, key, paths, stamps, git.branch)
    if (kept !== undefined) return { facts: kept, memo: memo as LedgerMemo }
    const { ledgerFacts } = await import('./ledger.js')
    const facts = await ledgerFacts(this.root, git, paths, since)
    return facts === undefined ? {} : { facts, memo: memoOf(key, paths, stamps, facts) }
  }
}

/** The project of `cwd`: its root found as root.ts finds it (git's top level, else CLAUDE_PROJECT_DIR, else `cwd`). */
export async function findProject(cwd: string, env: NodeJS.ProcessEnv): Promise<Project> {
  return new Project((await findProjectRoot(cwd, env.CLAUDE_PROJECT_DIR)).root)
}
