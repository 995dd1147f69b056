/**
 * Whether a search must catch up before answering, decided without reading the log's commit point or any
 * checkpoint: `index/caught-up.json` keeps what the last full catch-up saw (the stat of log.json and of the hints
 * folder, and the look at the host stores: the digest of every transcript's size and mtime, the folders walked,
 * sources.ts). The rule (docs/SEARCH.md):
 * - log.json or the hints folder changed (a capture appended events or left a hint, another process caught up):
 *   the full catch-up (catch-up.ts), which writes the stamp again when it leaves nothing behind;
 * - else a transcript folder changed (a transcript added, removed or renamed): a full look at every transcript;
 * - else, within LOOK_EVERY_MS of the last full look, nothing more: a transcript a hooked session writes is in the
 *   log at its Stop (capture.ts), so only one that no hook captures (a session resumed without bookmark's hooks)
 *   waits, at most LOOK_EVERY_MS, before a search finds what it gained;
 * - else the full look (a stat of every transcript): the same digest renews the stamp, another one catches up.
 * Statting each of a thousand transcripts was a third of a cold search (docs/BENCHMARKS.md); the folders are a few
 * dozen.
 */
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomHex } from '../shared/random.js'
import type { MemoryLayout } from './paths.js'
import { type Look, foldersDigest } from './sources.js'

/** How long after a full look at every transcript a search may rely on the folders alone (as the MCP server's CATCH_UP_EVERY_MS). */
export const LOOK_EVERY_MS = 30_000

export interface Stamp extends Look {
  version: 2
  /** log.json's size, mtime and inode when every event in it was indexed. */
  log: string
  /** The hints folder's stat (statOf) before the catch-up read the hints. */
  pending: string
  /** When the look (`digest`, `folders`) began, epoch ms. */
  lookedAt: number
}

export const stampPath = (m: MemoryLayout): string => join(m.index, 'caught-up.json')

/** A file's or folder's size, mtime and inode, as a stamp holds it; 'none' when it is missing. */
export function statOf(path: string): string {
  const s = statSync(path, { throwIfNoEntry: false })
  return s === undefined ? 'none' : `${s.size}:${s.mtimeMs}:${s.ino}`
}

/** The stat of the log's commit point, as a stamp holds it; undefined when there is none. */
export function logStamp(m: MemoryLayout): string | undefined {
  const s = statOf(m.state)
  return s === 'none' ? undefined : s
}

export function readStamp(m: MemoryLayout): Stamp | undefined {
  try {
    const v = JSON.parse(readFileSync(stampPath(m), 'utf8')) as Partial<Stamp>
    if (
      v &&
      v.version === 2 &&
      typeof v.log === 'string' &&
      typeof v.pending === 'string' &&
      typeof v.digest === 'string' &&
      typeof v.foldersDigest === 'string' &&
      typeof v.lookedAt === 'number' &&
      Array.isArray(v.folders) &&
      v.folders.every((f) => typeof f === 'string')
    )
      return v as Stamp
  } catch {
    // none yet, or damaged (or version 1, which had no folders): a full catch-up
  }
  return undefined
}

/** What the stamp leaves to do: nothing, a full look at every transcript (lookAtStores), or the full catch-up. */
export function stampVerdict(stamp: Stamp | undefined, m: MemoryLayout, now: number): 'fresh' | 'look' | 'catch-up' {
  if (!stamp || stamp.log !== logStamp(m) || stamp.pending !== statOf(m.pending)) return 'catch-up'
  if (now < stamp.lookedAt || now - stamp.lookedAt >= LOOK_EVERY_MS) return 'look'
  return foldersDigest(stamp.folders) === stamp.foldersDigest ? 'fresh' : 'look'
}

/**
 * Writes the stamp atomically (a temp file renamed over it). Without the memory lock only to renew a stamp whose
 * log and hints stats were just found the same: a stamp another process wrote meanwhile, if overwritten, costs the
 * next search one full catch-up, never a missed event.
 */
export function writeStamp(m: MemoryLayout, stamp: Stamp): void {
  const path = stampPath(m)
  const temp = `${path}.${process.pid}.${randomHex(4)}.tmp`
  try {
    writeFileSync(temp, `${JSON.stringify(stamp)}\n`, { mode: 0o600, flag: 'wx' })
    renameSync(temp, path)
  } catch (e) {
    try {
      unlinkSync(temp)
    } catch {
      // never made, or renamed
    }
    throw e
  }
}
