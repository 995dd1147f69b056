/**
 * The events log: the durable record of every session's search events, in the bookmark home (0700).
 *
 *   <home>/memory/log.json           the commit point: current segment, its committed length, a commit number, and
 *                                    the checkpoints of the last commit
 *   <home>/memory/events/NNNNNN.jsonl  append-only segments of redacted events, one JSON object a line
 *   <home>/memory/sources/…          one checkpoint file per transcript (checkpoints.ts)
 *   <home>/memory/memory.lock        taken for each append (and each index build step)
 *
 * An append happens under the lock: bytes past the committed length (a writer killed before its commit) are cut
 * off, the batch is written with O_APPEND, then log.json is replaced atomically with the new length and the
 * batch's checkpoints, then each checkpoint's own file is written. A batch is therefore in the log exactly when
 * its checkpoints are: until their files are written, log.json holds them (the next append writes them first if
 * their writer died), and a reader takes log.json's copy when its commit number is the higher. A rerun after
 * kill -9 reads those transcripts on from where the last commit left them, with no duplicate and no lost event.
 * Readers read only up to the committed length and skip a line that does not parse, or that `forget` blanked.
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs'
import { open, readRegularFile, statOrNone } from '../shared/fsp.js'
import { ensureDir, writeJson } from '../store/files.js'
import { withLock, type LockOptions } from '../store/lock.js'
import type { TranscriptCursor } from '../transcript/read.js'
import type { HostId } from '../hosts/host.js'
import type { EventCarry, SearchEvent } from './events.js'
import { mergeSeen, readCheckpointFile, seenOf, writeCheckpointFile } from './checkpoints.js'
import { type MemoryLayout, memoryLayout, segmentPath } from './paths.js'

export interface Checkpoint extends TranscriptCursor {
  host: HostId
  session: string
  /** Size and mtime of the transcript when it was read: unchanged means nothing to read. */
  size: number
  mtime: number
  carry: EventCarry
  events: number
  /** Lines that could not be read (not JSON, or an unusable shape). */
  unreadable: number
  /** The commit that wrote it (LogState.commit): of two copies, the higher is the newer. */
  commit?: number
  /** `bookmark forget` dropped the events of lines up to this one: a read from the start never logs them again. */
  forgot?: number
}

export interface LogState {
  version: 2
  segment: number
  committed: number
  /** Commits so far. */
  commit: number
  /** The checkpoints of the last commit, kept here until their files are written. */
  last?: Record<string, Checkpoint>
  /** A first-version log.json's checkpoints (all in that one file): moved to their files by the next append. */
  legacy?: Record<string, Checkpoint>
}

export { type MemoryLayout, memoryLayout, segmentPath } from './paths.js'

/** A segment is closed once it holds this much; the next append starts a new one. */
export const SEGMENT_BYTES = 64 * 1024 * 1024

/** The memory store, made when missing. Its log.json is what tells a capture that the store exists (save.ts). */
export async function ensureMemory(bookmarkHome: string): Promise<MemoryLayout> {
  const m = memoryLayout(bookmarkHome)
  await ensureDir(bookmarkHome)
  await ensureDir(m.dir)
  await ensureDir(m.events)
  await ensureDir(m.index)
  if ((await statOrNone(m.state)) === undefined) {
    await withMemoryLock(m, async () => {
      if ((await statOrNone(m.state)) === undefined) await writeJson(m.state, emptyState(), { redacted: true, compact: true })
    })
  }
  return m
}

const emptyState = (): LogState => ({ version: 2, segment: 0, committed: 0, commit: 0 })

export async function readLogState(m: MemoryLayout): Promise<LogState> {
  let text: string
  try {
    text = await readRegularFile(m.state)
  } catch {
    return emptyState()
  }
  try {
    const v = JSON.parse(text) as Omit<Partial<LogState>, 'version'> & { version?: number; sources?: Record<string, Checkpoint> }
    if (v && typeof v.segment === 'number' && typeof v.committed === 'number') {
      if (v.version === 2 && typeof v.commit === 'number') return v as LogState
      if (v.version === 1 && typeof v.sources === 'object' && v.sources !== null)
        return { version: 2, segment: v.segment, committed: v.committed, commit: 0, legacy: v.sources }
    }
  } catch {
    // a damaged commit point: the log starts again from 0; checkpoints and seen.json newer than it are not
    // trusted (checkpoints.ts), so the transcripts are read again
  }
  return emptyState()
}

export function withMemoryLock<T>(m: MemoryLayout, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  return withLock(m.lock, fn, options)
}

/** Writes all of `data`, at `position` or (O_APPEND) at the end. */
function writeAll(fd: number, data: Buffer, position?: number): void {
  for (let at = 0; at < data.length;) at += writeSync(fd, data, at, data.length - at, position === undefined ? null : position + at)
}

/**
 * Appends `events` and commits `checkpoints` with them. Call under the memory lock, with the state read under it.
 * The events are redacted already (events.ts); the checkpoints' carries hold only redacted text.
 */
export async function appendEvents(m: MemoryLayout, state: LogState, events: SearchEvent[], checkpoints: Record<string, Checkpoint>): Promise<LogState> {
  if (state.legacy) {
    // A first-version log.json: each checkpoint to its file, once (log.json below no longer holds them).
    const at = state.commit
    for (const [path, cp] of Object.entries(state.legacy)) if (!(path in checkpoints)) await writeCheckpointFile(m, path, { ...cp, commit: at })
    const legacy = Object.entries(state.legacy)
    await mergeSeen(m, Object.fromEntries(legacy.map(([path, cp]) => [path, seenOf(cp)])), state.commit + 1, legacy.length > 0)
  }
  // The last commit's checkpoints whose files its writer may not have written (killed after log.json).
  for (const [path, cp] of Object.entries(state.last ?? {})) {
    if (path in checkpoints) continue
    const file = await readCheckpointFile(m, path)
    if (!file || (file.commit ?? 0) < (cp.commit ?? 0)) await writeCheckpointFile(m, path, cp)
  }
  let { segment, committed } = state
  if (committed >= SEGMENT_BYTES) {
    // The closed segment is read whole from now on: nothing past its commit point may stay in it.
    const old = openSync(segmentPath(m, segment), constants.O_WRONLY | constants.O_NOFOLLOW)
    try {
      if (fstatSync(old).size > committed) ftruncateSync(old, committed)
    } finally {
      closeSync(old)
    }
    segment++
    committed = 0
  }
  const path = segmentPath(m, segment)
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o600)
  try {
    const size = fstatSync(fd).size
    // Bytes past the commit point were written by a process that died before committing them.
    if (size > committed) ftruncateSync(fd, committed)
    else if (size < committed) committed = size
    if (events.length > 0) {
      const data = Buffer.from(events.map((e) => JSON.stringify(e)).join('\n') + '\n', 'utf8')
      writeAll(fd, data)
      committed += data.length
    }
  } finally {
    closeSync(fd)
  }
  const commit = state.commit + 1
  const paths = Object.keys(checkpoints)
  const last = Object.fromEntries(paths.map((p) => [p, { ...checkpoints[p]!, commit }]))
  const next: LogState = { version: 2, segment, committed, commit, ...(paths.length > 0 ? { last } : {}) }
  await writeJson(m.state, next, { redacted: true, compact: true })
  for (const p of paths) await writeCheckpointFile(m, p, last[p]!)
  if (paths.length > 1) {
    // A batch of many transcripts (a backfill): their files are written, log.json need not carry them.
    delete next.last
    await writeJson(m.state, next, { redacted: true, compact: true })
  }
  return next
}

/** Where an event is in the log. */
export interface LogPosition {
  segment: number
  offset: number
}

export const comparePosition = (a: LogPosition, b: LogPosition): number => a.segment - b.segment || a.offset - b.offset

export interface LoggedEvent {
  event: SearchEvent
  segment: number
  offset: number
  length: number
}

const READ_CHUNK = 8 * 1024 * 1024
/** A forgotten event's bytes are overwritten with this (a space): no JSON event starts with it. */
const BLANK = 0x20

/**
 * The committed events from `from` on, in order, `batch` at a time (the caller builds an index piece from each).
 * Lines that do not parse (a torn write) are counted in `torn` and skipped.
 */
export async function readEvents(
  m: MemoryLayout,
  state: LogState,
  from: LogPosition,
  batch: number,
  onBatch: (events: LoggedEvent[], end: LogPosition) => Promise<void>,
): Promise<{ end: LogPosition; torn: number }> {
  let torn = 0
  let pending: LoggedEvent[] = []
  let end: LogPosition = { ...from }
  for (let seg = from.segment; seg <= state.segment; seg++) {
    let fh
    try {
      fh = await open(segmentPath(m, seg), 'r')
    } catch {
      continue
    }
    try {
      const size = seg === state.segment ? Math.min(state.committed, (await fh.stat()).size) : (await fh.stat()).size
      let position = seg === from.segment ? from.offset : 0
      let carry = Buffer.alloc(0)
      let carryAt = position
      while (position < size) {
        const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK, size - position))
        const { bytesRead } = await fh.read(buf, 0, buf.length, position)
        if (bytesRead <= 0) break
        position += bytesRead
        const data = carry.length > 0 ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead)
        let start = 0
        for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a, start)) {
          // A line `forget` blanked is neither an event nor a torn write.
          if (data[start] !== BLANK || nl === start) {
            try {
              const event = JSON.parse(data.toString('utf8', start, nl)) as SearchEvent
              if (event && typeof event.id === 'string' && typeof event.text === 'string') {
                pending.push({ event, segment: seg, offset: carryAt + start, length: nl - start })
              } else torn++
            } catch {
              torn++
            }
          }
          start = nl + 1
          end = { segment: seg, offset: carryAt + start }
          if (pending.length >= batch) {
            await onBatch(pending, end)
            pending = []
          }
        }
        carry = Buffer.from(data.subarray(start))
        carryAt += start
      }
      // A last line without its newline is a torn write past what was committed: never read.
    } finally {
      await fh.close()
    }
    if (seg < state.segment) end = { segment: seg + 1, offset: 0 }
  }
  if (pending.length > 0) await onBatch(pending, end)
  return { end, torn }
}

/**
 * Overwrites each event with spaces, its newline kept (`bookmark forget`): every other event stays where the index
 * says it is, and readers skip the line. One write a line. Call under the memory lock.
 */
export function blankEvents(m: MemoryLayout, events: Pick<LoggedEvent, 'segment' | 'offset' | 'length'>[]): void {
  const bySegment = new Map<number, Pick<LoggedEvent, 'offset' | 'length'>[]>()
  for (const e of events) bySegment.set(e.segment, [...(bySegment.get(e.segment) ?? []), e])
  for (const [seg, lines] of bySegment) {
    const fd = openSync(segmentPath(m, seg), constants.O_WRONLY | constants.O_NOFOLLOW)
    try {
      for (const l of lines) writeAll(fd, Buffer.alloc(l.length, BLANK), l.offset)
    } finally {
      closeSync(fd)
    }
  }
}

/** One event read back from where the index says it is. */
export async function readEventAt(m: MemoryLayout, segment: number, offset: number, length: number): Promise<SearchEvent | undefined> {
  let fh
  try {
    fh = await open(segmentPath(m, segment), 'r')
  } catch {
    return undefined
  }
  try {
    const buf = Buffer.alloc(length)
    const { bytesRead } = await fh.read(buf, 0, length, offset)
    return JSON.parse(buf.toString('utf8', 0, bytesRead)) as SearchEvent
  } catch {
    return undefined
  } finally {
    await fh.close()
  }
}
