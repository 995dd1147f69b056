/**
 * What the project's git says about itself: branch, HEAD, and whether a file is tracked. Reads .git
 * directly (no process) except for the tracked check, which asks git with a short timeout.
 */
import { readFile, stat } from '../shared/fsp.js'
import { isAbsolute, join, resolve } from 'node:path'

export interface GitInfo {
  branch?: string
  head?: string
}

async function gitDir(root: string): Promise<string | undefined> {
  const dotGit = join(root, '.git')
  try {
    const s = await stat(dotGit)
    if (s.isDirectory()) return dotGit
    const text = await readFile(dotGit, 'utf8')
    const m = /^gitdir:\s*(.+)\s*$/m.exec(text)
    if (m && m[1]) return isAbsolute(m[1]) ? m[1] : resolve(root, m[1])
  } catch {
    // not a repository
  }
  return undefined
}

async function commonDir(dir: string): Promise<string> {
  try {
    const text = (await readFile(join(dir, 'commondir'), 'utf8')).trim()
    return isAbsolute(text) ? text : resolve(dir, text)
  } catch {
    return dir
  }
}

async function resolveRef(dir: string, ref: string): Promise<string | undefined> {
  for (const base of [dir, await commonDir(dir)]) {
    try {
      const sha = (await readFile(join(base, ref), 'utf8')).trim()
      if (/^[0-9a-f]{40,64}$/.test(sha)) return sha
    } catch {
      // try packed-refs
    }
    try {
      const packed = await readFile(join(base, 'packed-refs'), 'utf8')
      for (const line of packed.split('\n')) {
        const [sha, name] = line.trim().split(' ')
        if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha
      }
    } catch {
      // none
    }
  }
  return undefined
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
  const { execFile } = await import('node:child_process') // only here: a hook that never asks does not load it
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
