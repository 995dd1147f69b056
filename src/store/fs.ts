/** Small file-system questions asked in several places; none of them throws. */
import { type Stats, lstatSync } from 'node:fs'
import { lstatOrNone, statOrNone } from '../shared/fsp.js'

export async function pathExists(p: string): Promise<boolean> {
  try {
    return (await statOrNone(p)) !== undefined
  } catch {
    return false
  }
}

export async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await statOrNone(p))?.isDirectory() === true
  } catch {
    return false
  }
}

export async function isFile(p: string): Promise<boolean> {
  try {
    return (await statOrNone(p))?.isFile() === true
  } catch {
    return false
  }
}

/** True when `path` exists and is a symbolic link (the store never follows one). */
export async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstatOrNone(path))?.isSymbolicLink() === true
  } catch {
    return false
  }
}

/**
 * size, mtime, ctime and inode of a file; null when it does not exist. Equal stamps mean the file was not
 * written in between: a write changes mtime and ctime (which no one can set back), a replacement the inode.
 */
export type Stamp = [number, number, number, number] | null

export const stampOf = (s: Stats | undefined): Stamp => (s ? [s.size, s.mtimeMs, s.ctimeMs, s.ino] : null)

/** `a` as read from a file may be anything: only a stamp equal to `b` counts. */
export const sameStamp = (a: unknown, b: Stamp): boolean => Array.isArray(a) && b !== null && a.length === b.length && a.every((v, i) => v === b[i])

/** The stamp of `path` itself (a link is not followed). */
export async function fileStamp(path: string): Promise<Stamp> {
  return stampOf(await lstatOrNone(path))
}

/**
 * `fileStamp` without a promise, for many paths at once (the ledger memo's fifty): a promise and a handler per path
 * cost a capture more than the stats themselves. Null when the path does not exist or cannot be looked at.
 */
export function fileStampNow(path: string): Stamp {
  try {
    return stampOf(lstatSync(path, { throwIfNoEntry: false }))
  } catch {
    return null
  }
}
