/**
 * Which words are paths we report, and where they point.
 *
 * Paths are returned as written. After a `cd DIR` (or pushd, Set-Location, `git -C`)
 * relative paths are joined with DIR; after a `cd` we cannot follow (`cd "$X"`,
 * `cd -`), relative paths are dropped rather than guessed. `~` and `~/x` are kept
 * literally (`~/x`), never expanded; `~user/x` is dropped.
 */
import path from 'node:path'
import type { Word } from './syntax.js'

export const DIRECTORY_ONLY = /^(?:\.{1,2}|~|[\\/]+|[A-Za-z]:[\\/]?)$/
const PS_PROVIDER = /^[A-Za-z][A-Za-z0-9]+:/ // Env:\X, HKLM:\..., Variable:x (drives are one letter)

/**
 * A word usable as a literal path: no expansions, globs, stray quotes or brackets,
 * flags, devices or URLs. `allowDir` admits `.`, `..`, `~`, `/` (cd targets, destinations).
 */
export function isCleanPath(w: Word, allowDir = false): boolean {
  if (w.dynamic || w.glob) return false
  const t = w.text
  if (t.length === 0 || t.length > 4096 || t.trim() !== t) return false
  if (t.startsWith('-')) return false
  // Control characters, quotes, brackets, operators, globs: never part of a path we report.
  if (/[\x00-\x1f\x7f"'`$(){}<>|;&*?]/.test(t)) return false
  if (t.startsWith('~') && !/^~(?:$|[\\/])/.test(t)) return false
  if (/^\/dev(\/|$)|^\/proc\/self\/fd\//.test(t)) return false
  if (t.includes('://')) return false
  if (PS_PROVIDER.test(t) && !/^[A-Za-z]:/.test(t)) return false
  if (/^(?:nul|con|prn|aux)(?::)?$/i.test(t)) return false
  if (!allowDir && DIRECTORY_ONLY.test(t)) return false
  return true
}

function isAbsoluteLike(p: string): boolean {
  return /^(?:[\\/]|[A-Za-z]:|~(?:$|[\\/]))/.test(p)
}

export function joinPath(dir: string, p: string): string {
  return dir.includes('\\') || p.includes('\\') ? path.win32.join(dir, p) : path.posix.join(dir, p)
}

/** `p` as written, or joined with the directory a `cd` moved to; undefined when that directory is unknown. */
export function resolvePath(cwd: string | null, p: string): string | null {
  if (isAbsoluteLike(p) || cwd === '') return p
  if (cwd === null) return null
  return joinPath(cwd, p)
}

export function fileOf(w: Word | undefined, cwd: string | null): string | undefined {
  if (!w || !isCleanPath(w)) return undefined
  return resolvePath(cwd, w.text) ?? undefined
}

export function baseName(p: string): string {
  const trimmed = p.replace(/[\\/]+$/, '')
  return trimmed.includes('\\') ? path.win32.basename(trimmed) : path.posix.basename(trimmed)
}

/** The directory after `cd dir` from `cwd`; null when it cannot be known. */
export function changeTo(cwd: string | null, dir: Word | undefined): string | null {
  if (!dir || !isCleanPath(dir, true)) return null
  return resolvePath(cwd, dir.text)
}
