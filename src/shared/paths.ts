/**
 * Pure path helpers that work for POSIX and Windows paths alike, whatever the host OS.
 * Transcripts recorded on Windows (`D:\\repo\\src\\a.ts`) are read on Linux and vice versa.
 */
import { posix, win32 } from 'node:path'

export function isWindowsPath(p: string): boolean {
  return /^[A-Za-z]:([\\/]|$)/.test(p) || p.startsWith('\\\\')
}

export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || isWindowsPath(p)
}

/** Normalises an absolute path; Windows paths come back with forward slashes and an upper-case drive. */
export function normalizeAbsolute(p: string): string {
  if (isWindowsPath(p)) {
    const n = win32.normalize(p).replace(/\\/g, '/')
    const out = n.length > 1 && n[1] === ':' ? n[0]!.toUpperCase() + n.slice(1) : n
    return out.length > 3 && out.endsWith('/') ? out.slice(0, -1) : out
  }
  const n = posix.normalize(p)
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n
}

/** Resolves `p` against the absolute directory `base`; undefined when neither gives an absolute path. */
export function resolveAgainst(base: string | undefined, p: string): string | undefined {
  if (p === '') return undefined
  if (isAbsolutePath(p)) return normalizeAbsolute(p)
  if (!base || !isAbsolutePath(base)) return undefined
  if (isWindowsPath(base)) return normalizeAbsolute(win32.join(base, p))
  return normalizeAbsolute(posix.join(base, p))
}

/**
 * The path of `abs` relative to the directory `root`, with `/` separators, or undefined when it is
 * outside (a sibling `/proj-other` is outside `/proj`) or is the root itself.
 */
export function relativeInside(root: string, abs: string): string | undefined {
  return relativeNormalized(normalizeAbsolute(root), normalizeAbsolute(abs))
}

/** `relativeInside` of two paths `normalizeAbsolute` gave: a caller asking both ways normalizes each once. */
export function relativeNormalized(r: string, a: string): string | undefined {
  const windows = isWindowsPath(r)
  if (windows !== isWindowsPath(a)) return undefined
  const prefix = r.endsWith('/') ? r : r + '/'
  if (!(windows ? a.toLowerCase().startsWith(prefix.toLowerCase()) : a.startsWith(prefix))) return undefined
  const rest = a.slice(prefix.length)
  return rest === '' ? undefined : rest
}

export function baseName(p: string): string {
  const parts = p.split(/[\\/]/)
  return parts[parts.length - 1] ?? ''
}

/** Git Bash and MSYS spell `D:\\x` as `/d/x`: in a Windows session such a path is that drive's. */
export function fromGitBashPath(p: string): string {
  const m = /^\/([A-Za-z])(\/.*)?$/.exec(p)
  if (!m) return p
  return `${m[1]!.toUpperCase()}:${m[2] ?? '/'}`
}
