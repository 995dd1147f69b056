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

  /** What git says now of the ledger's `paths` (ledger.ts), with the branch and HEAD read above. */
  async ledger(paths: string[], since: string | undefined): Promise<LedgerFacts | undefined> {
    if (paths.length === 0) return undefined
    const [git, { ledgerFacts }] = await Promise.all([this.git(), import('./ledger.js')])
    return ledgerFacts(this.root, git, paths, since)
  }
}

/** The project of `cwd`: its root found as root.ts finds it (git's top level, else CLAUDE_PROJECT_DIR, else `cwd`). */
export async function findProject(cwd: string, env: NodeJS.ProcessEnv): Promise<Project> {
  return new Project((await findProjectRoot(cwd, env.CLAUDE_PROJECT_DIR)).root)
}
