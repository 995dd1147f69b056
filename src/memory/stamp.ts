/**
 * Whether a search must catch up before answering, decided without reading the log's commit point or any
 * checkpoint: `index/caught-up.json` keeps what the last full catch-up saw (the stat of log.json, and the digest of
 * every transcript's size and mtime, sources.ts). Both the same now: every transcript was read to where it is,
 * every event of the log is indexed, and nothing was appended since. Anything else (a capture appended events, a
 * transcript grew or appeared, another process caught up) sends the search through the full catch-up
 * (catch-up.ts), which writes the stamp again when it leaves nothing behind.
 */
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { MemoryLayout } from './paths.js'

export interface Stamp {
  version: 1
  /** log.json's size, mtime and inode when every event in it was indexed. */
  log: string
  /** The transcripts' digest (sources.ts) when every one of them was read to its end. */
  transcripts: string
}

export const stampPath = (m: MemoryLayout): string => join(m.index, 'caught-up.json')

/** The stat of the log's commit point, as a stamp holds it; undefined when there is none. */
export function logStamp(m: MemoryLayout): string | undefined {
  const s = statSync(m.state, { throwIfNoEntry: false })
  return s === undefined ? undefined : `${s.size}:${s.mtimeMs}:${s.ino}`
}

export function readStamp(m: MemoryLayout): Stamp | undefined {
  try {
    const v = JSON.parse(readFileSync(stampPath(m), 'utf8')) as Partial<Stamp>
    if (v && v.version === 1 && typeof v.log === 'string' && typeof v.transcripts === 'string') return v as Stamp
  } catch {
    // none yet, or damaged: a full catch-up
  }
  return undefined
}
