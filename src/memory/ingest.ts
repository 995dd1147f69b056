/**
 * Reads transcripts from their checkpoints into search events and commits them to the log, a batch at a time.
 * A transcript is read without the lock (the slow part); its batch is committed under the lock only if its
 * checkpoint is still the one the read started from, so two processes catching up at once never log an event twice.
 */
import { hostOf } from '../hosts/index.js'
import { statOrNone } from '../shared/fsp.js'
import { readTranscript } from '../transcript/read.js'
import { type EventCarry, type SearchEvent, eventsOf, newCarry } from './events.js'
import { type Checkpoint, type LogState, type MemoryLayout, appendEvents, readLogState, withMemoryLock } from './log.js'
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
}

interface Read {
  path: string
  before: Checkpoint | undefined
  after: Checkpoint
  events: SearchEvent[]
  /** Unreadable lines met by this read. */
  skipped: number
}

const sameStart = (a: Checkpoint | undefined, b: Checkpoint | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.offset === b.offset && a.head === b.head && a.lines === b.lines)

async function readSource(source: TranscriptSource, before: Checkpoint | undefined): Promise<Read | 'unchanged'> {
  const s = await statOrNone(source.path)
  if (s === undefined || !s.isFile()) throw new Error('not a file')
  if (before && before.size === s.size && before.mtime === s.mtimeMs) return 'unchanged'
  const carry: EventCarry = before ? structuredClone(before.carry) : newCarry()
  const events: SearchEvent[] = []
  const from = before ? { offset: before.offset, lines: before.lines, head: before.head, ...(before.tail ? { tail: before.tail } : {}) } : undefined
  let restarted = false
  const stats = await readTranscript(
    source.path,
    from,
    hostOf(source.host).parseLine,
    (entry) => {
      for (const e of eventsOf(entry, { host: source.host, session: source.session, transcript: source.path }, carry)) events.push(e)
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
    session: source.session,
    size: s.size,
    mtime: s.mtimeMs,
    carry,
    events: (restarted || !before ? 0 : before.events) + events.length,
    unreadable: (restarted || !before ? 0 : before.unreadable) + stats.skipped,
  }
  return { path: source.path, before, after, events, skipped: stats.skipped }
}

/** Reads every source that changed since its checkpoint and commits what it found. */
export async function ingest(m: MemoryLayout, sources: TranscriptSource[], options: IngestOptions = {}): Promise<IngestStats> {
  const stats: IngestStats = { files: sources.length, read: 0, events: 0, unreadable: 0, failed: 0 }
  const batchEvents = options.batchEvents ?? 5_000
  let known: LogState = await readLogState(m)
  let waiting: Read[] = []
  let waitingEvents = 0

  const commit = async (): Promise<void> => {
    if (waiting.length === 0) return
    const batch = waiting
    waiting = []
    waitingEvents = 0
    known = await withMemoryLock(
      m,
      async () => {
        const state = await readLogState(m)
        // Another process read the same bytes meanwhile: its commit stands, ours is dropped.
        const mine = batch.filter((r) => sameStart(state.sources[r.path], r.before))
        const events = mine.flatMap((r) => r.events)
        const checkpoints = Object.fromEntries(mine.map((r) => [r.path, r.after]))
        for (const r of mine) {
          stats.events += r.events.length
          stats.unreadable += r.skipped
        }
        return appendEvents(m, state, events, checkpoints)
      },
      options.lock,
    )
  }

  for (let i = 0; i < sources.length; i++) {
    const source = sources[i]!
    options.onProgress?.(i, sources.length)
    let r: Read | 'unchanged'
    try {
      r = await readSource(source, known.sources[source.path])
    } catch {
      stats.failed++
      continue
    }
    if (r === 'unchanged') continue
    stats.read++
    waiting.push(r)
    waitingEvents += r.events.length
    if (waitingEvents >= batchEvents) await commit()
  }
  await commit()
  options.onProgress?.(sources.length, sources.length)
  return stats
}
