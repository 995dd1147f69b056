/**
 * Reads transcripts from their checkpoints into search events and commits them to the log, a batch at a time.
 * A transcript is read without the lock (the slow part); its batch is committed under the lock only if its
 * checkpoint is still the one the read started from, so two processes catching up at once (or a catch-up and a
 * capture, memory/capture.ts) never log an event twice. A transcript whose size and mtime are the ones seen.json
 * or its checkpoint holds is not read.
 */
import type { Stats } from 'node:fs'
import { hostOf } from '../hosts/index.js'
import { statOrNone } from '../shared/fsp.js'
import { readTranscript } from '../transcript/read.js'
import { type EventCarry, type SearchEvent, eventsOf, newCarry } from './events.js'
import { type Checkpoint, type MemoryLayout, appendEvents, readLogState, withMemoryLock } from './log.js'
import { type SeenEntry, mergeSeen, readCheckpoint, readSeen, sameStart, seenOf } from './checkpoints.js'
import type { LockOptions } from '../store/lock.js'
import type { TranscriptSource } from './sources.js'

export interface IngestStats {
  files: number
  /** Files that had new bytes and were read. */
  read: number
  events: number
  unreadable: number
  /** Files that could not be opened or read. */
  failed: number
}

export interface IngestOptions {
  lock?: LockOptions
  onProgress?: (done: number, total: number) => void
  /** Commit once this many events wait (a backfill resumes from the last commit). */
  batchEvents?: number
  /** A backfill: seen.json records it, and later catch-ups look for new transcripts in the host stores. */
  backfill?: boolean
}

interface Read {
  path: string
  before: Checkpoint | undefined
  after: Checkpoint
  events: SearchEvent[]
  /** Unreadable lines met by this read. */
  skipped: number
}

const unchanged = (e: { size: number; mtime: number } | undefined, s: Stats): boolean => e !== undefined && e.size === s.size && e.mtime === s.mtimeMs

async function readSource(source: TranscriptSource, before: Checkpoint | undefined, s: Stats): Promise<Read> {
  const carry: EventCarry = before ? structuredClone(before.carry) : newCarry()
  // The transcript keeps the session its first reader gave it (a capture names it from its payload).
  const session = before?.session ?? source.session
  const forgot = before?.forgot ?? 0
  const events: SearchEvent[] = []
  const from = before ? { offset: before.offset, lines: before.lines, head: before.head, ...(before.tail ? { tail: before.tail } : {}) } : undefined
  let restarted = false
  const stats = await readTranscript(
    source.path,
    from,
    hostOf(source.host).parseLine,
    (entry) => {
      for (const e of eventsOf(entry, { host: source.host, session, transcript: source.path }, carry)) if (e.line > forgot) events.push(e)
    },
    {
      onRestart: () => {
        restarted = true
      },
    },
  )
  const after: Checkpoint = {
    ...stats.cursor,
    host: source.host,
    session,
    size: s.size,
    mtime: s.mtimeMs,
    carry,
    events: (restarted || !before ? 0 : before.events) + events.length,
    unreadable: (restarted || !before ? 0 : before.unreadable) + stats.skipped,
    ...(forgot > 0 ? { forgot } : {}),
  }
  return { path: source.path, before, after, events, skipped: stats.skipped }
}

/** Reads every source that changed since its checkpoint and commits what it found. */
export async function ingest(m: MemoryLayout, sources: TranscriptSource[], options: IngestOptions = {}): Promise<IngestStats> {
  const stats: IngestStats = { files: sources.length, read: 0, events: 0, unreadable: 0, failed: 0 }
  const batchEvents = options.batchEvents ?? 5_000
  const seen = await readSeen(m, await readLogState(m))
  let waiting: Read[] = []
  let waitingEvents = 0
  // Transcripts found as their checkpoint left them (a capture read them): seen.json learns their size and mtime.
  let fresh: Record<string, SeenEntry> = {}

  const commit = async (): Promise<void> => {
    if (waiting.length === 0 && Object.keys(fresh).length === 0 && !options.backfill) return
    const batch = waiting
    waiting = []
    waitingEvents = 0
    await withMemoryLock(
      m,
      async () => {
        const state = await readLogState(m)
        // Another process read the same bytes meanwhile: its commit stands, ours is dropped.
        const mine: Read[] = []
        for (const r of batch) if (sameStart(await readCheckpoint(m, state, r.path), r.before)) mine.push(r)
        const events = mine.flatMap((r) => r.events)
        const checkpoints = Object.fromEntries(mine.map((r) => [r.path, r.after]))
        for (const r of mine) {
          stats.events += r.events.length
          stats.unreadable += r.skipped
          fresh[r.path] = seenOf(r.after)
        }
        const next = batch.length > 0 || state.legacy ? await appendEvents(m, state, events, checkpoints) : state
        await mergeSeen(m, fresh, next.commit, options.backfill)
        fresh = {}
      },
      options.lock,
    )
  }

  for (let i = 0; i < sources.length; i++) {
    const source = sources[i]!
    options.onProgress?.(i, sources.length)
    let r: Read
    try {
      const s = await statOrNone(source.path)
      if (s === undefined || !s.isFile()) throw new Error('not a file')
      if (unchanged(seen.sources[source.path], s)) continue
      const before = await readCheckpoint(m, await readLogState(m), source.path)
      if (before && unchanged(before, s)) {
        fresh[source.path] = seenOf(before)
        continue
      }
      r = await readSource(source, before, s)
    } catch {
      stats.failed++
      continue
    }
    stats.read++
    waiting.push(r)
    waitingEvents += r.events.length
    if (waitingEvents >= batchEvents) await commit()
  }
  await commit()
  options.onProgress?.(sources.length, sources.length)
  return stats
}
