/**
 * What the project's git says about itself: branch, HEAD, and whether a file is tracked. Reads .git
 * directly (no process) except for the tracked check, which asks git with a short timeout.
 */
import { childProcess } from '../shared/builtin.js'
import { readFile, statOrNone } from '../shared/fsp.js'
import { isAbsolute, join, resolve } from 'node:path'

export interface GitInfo {
  branch?: string
  head?: string
}

/** The git folder of the repository at `root` (a worktree's own folder for a worktree). */
export async function gitDir(root: string): Promise<string | undefined> {
  const dotGit = join(root, '.git')
  try {
    const s = await statOrNone(dotGit)
    if (s === undefined) return undefined
    if (s.isDirectory()) return dotGit
    const text = await readFile(dotGit, 'utf8')
    const m = /^gitdir:\s*(.+)\s*$/m.exec(text)
    if (m && m[1]) return isAbsolute(m[1]) ? m[1] : resolve(root, m[1])
  } catch {
    // not a repository
  }
  return undefined
}

/** The text of a file, or undefined when it is absent or unreadable (no error is made for an absent one). */
async function textOrNone(path: string): Promise<string | undefined> {
  if ((await statOrNone(path)) === undefined) return undefined
  try {
    return await readFile(path, 'utf8')
  } catch {
    return undefined
  }
}

/** The main repository's git folder of a worktree's `dir` (undefined for a main repository). */
export async function commonDir(dir: string): Promise<string | undefined> {
  const text = (await textOrNone(join(dir, 'commondir')))?.trim()
  return text ? (isAbsolute(text) ? text : resolve(dir, text)) : undefined
}

async function resolveRef(dir: string, ref: string): Promise<string | undefined> {
  const inFolder = async (base: string): Promise<string | undefined> => {
    const sha = (await textOrNone(join(base, ref)))?.trim()
    if (sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha
    for (const line of (await textOrNone(join(base, 'packed-refs')))?.split('\n') ?? []) {
      const [packed, name] = line.trim().split(' ')
      if (name === ref && packed && /^[0-9a-f]{40,64}$/.test(packed)) return packed
    }
    return undefined
  }
  const found = await inFolder(dir)
  if (found) return found
  const common = await commonDir(dir)
  return common === undefined || common === dir ? undefined : inFolder(common)
}

/** The path of git's index file for the repository at `root` (undefined outside a repository). */
export async function gitIndexFile(root: string): Promise<string | undefined> {
  const dir = await gitDir(root)
  return dir === undefined ? undefined : join(dir, 'index')
}

export async function readGitInfo(root: string): Promise<GitInfo> {
  const dir = await gitDir(root)
  if (!dir) return {}
  try {
    const head = (await readFile(join(dir, 'HEAD'), 'utf8')).trim()
    const m = /^ref:\s*(refs\/heads\/(.+))$/.exec(head)
    if (m && m[1] && m[2]) {
      const sha = await resolveRef(dir, m[1])
      return { branch: m[2], ...(sha ? { head: sha } : {}) }
    }
    if (/^[0-9a-f]{40,64}$/.test(head)) return { head }
  } catch {
    // unreadable HEAD
  }
  return {}
}

/**
 * True when git tracks `relPath` in the repository at `root` (false outside a repository, or when git
 * is missing or says no). The index file answers; git itself only when that cannot be read here.
 */
export async function isTrackedByGit(root: string, relPath: string, timeoutMs = 2_000): Promise<boolean> {
  const dir = await gitDir(root)
  if (!dir) return false
  const { trackedInIndex } = await import('./git-index.js') // only where the handoff is judged from the file
  const fromIndex = await trackedInIndex(dir, relPath)
  if (fromIndex !== undefined) return fromIndex
  return askGit(root, relPath, timeoutMs)
}

async function askGit(root: string, relPath: string, timeoutMs: number): Promise<boolean> {
  const { execFile } = childProcess() // only here: a hook that never asks does not load it (not import(): see builtin.ts)
  return new Promise((resolvePromise) => {
    execFile('git', ['ls-files', '--error-unmatch', '--', relPath], { cwd: root, timeout: timeoutMs, windowsHide: true }, (err) => {
      if (!err) return resolvePromise(true)
      const code = (err as NodeJS.ErrnoException).code
      // git itself missing or too slow: look for the path in the index file instead (fail closed).
      if (code === 'ENOENT' || err.killed) void inIndexFile(root, relPath).then(resolvePromise)
      else resolvePromise(false)
    })
  })
}

async function inIndexFile(root: string, relPath: string): Promise<boolean> {
  const dir = await gitDir(root)
  if (!dir) return false
  try {
    const index = await readFile(join(dir, 'index'))
    return index.includes(Buffer.from(`${relPath}\0`))
  } catch {
    return false
  }
}
