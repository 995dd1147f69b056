/**
 * Finding the project root: the git top level of the working directory; else CLAUDE_PROJECT_DIR;
 * else the working directory itself. Never a subfolder of the project.
 */
import { dirname, resolve } from 'node:path'
import { pathExists as exists } from '../store/fs.js'

/** Walks up from `dir` to the folder that holds `.git` (a directory, or a file for worktrees). */
export async function gitTopLevel(dir: string): Promise<string | undefined> {
  let current = resolve(dir)
  for (;;) {
    if (await exists(`${current}/.git`)) return current
    const parent = dirname(current)
    if (parent === current) return undefined
    current = parent
  }
}

export interface RootChoice {
  root: string
  reason: 'git' | 'claude-project-dir' | 'cwd'
}

export async function findProjectRoot(cwd: string, claudeProjectDir: string | undefined): Promise<RootChoice> {
  const git = await gitTopLevel(cwd)
  if (git) return { root: git, reason: 'git' }
  if (claudeProjectDir && claudeProjectDir.trim() !== '') {
    const dir = resolve(claudeProjectDir)
    const inside = resolve(cwd) === dir || resolve(cwd).startsWith(dir.endsWith('/') ? dir : `${dir}/`)
    if (inside && (await exists(dir))) return { root: dir, reason: 'claude-project-dir' }
  }
  return { root: resolve(cwd), reason: 'cwd' }
}
