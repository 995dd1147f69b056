/**
 * The events log: the durable record of every session's search events, in the bookmark home (0700).
 *
 *   <home>/memory/log.json           the commit point: current segment, its committed length, a checkpoint per transcript
 *   <home>/memory/events/NNNNNN.jsonl  append-only segments of redacted events, one JSON object a line
 *   <home>/memory/memory.lock        taken for each append (and each index build step)
 *
 * An append happens under the lock: bytes past the committed length (a writer killed before its commit) are cut
 * off, the batch is written with O_APPEND, then log.json is replaced atomically with the new length and the
 * batch's checkpoints. A batch is therefore in the log exactly when its checkpoints are: a rerun after kill -9
 * reads those transcripts on from where the last commit left them, with no duplicate and no lost event.
 * Readers read only up to the committed length and skip a line that does not parse.
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, writeSync } from 'node:fs'
import { open, readRegularFile } from '../shared/fsp.js'
import { ensureDir, writeJson } from '../store/files.js'
import { withLock, type LockOptions } from '../store/lock.js'
import type { TranscriptCursor } from '../transcript/read.js'
import type { HostId } from '../hosts/host.js'
import type { EventCarry, SearchEvent } from './events.js'
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
}

export interface LogState {
  version: 1
  segment: number
  committed: number
  sources: Record<string, Checkpoint>
}

export { type MemoryLayout, memoryLayout, segmentPath } from './paths.js'

/** A segment is closed once it holds this much; the next append starts a new one. */
export const SEGMENT_BYTES = 64 * 1024 * 1024

export async function ensureMemory(bookmarkHome: string): Promise<MemoryLayout> {
  const m = memoryLayout(bookmarkHome)
  await ensureDir(bookmarkHome)
  await ensureDir(m.dir)
  await ensureDir(m.events)
  await ensureDir(m.index)
  return m
}

const emptyState = (): LogState => ({ version: 1, segment: 0, committed: 0, sources: {} })

export async function readLogState(m: MemoryLayout): Promise<LogState> {
  let text: string
  try {
    text = await readRegularFile(m.state)
  } catch {
    return emptyState()
  }
  try {
    const v = JSON.parse(text) as Partial<LogState>
    if (v && v.version === 1 && typeof v.segment === 'number' && typeof v.committed === 'number' && typeof v.sources === 'object' && v.sources !== null) {
      return v as LogState
    }
  } catch {
    // a damaged commit point: a backfill starts again (its events are appended again under the same ids)
  }
  return emptyState()
}

export function withMemoryLock<T>(m: MemoryLayout, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  return withLock(m.lock, fn, options)
}

function writeAll(fd: number, data: Buffer): void {
  for (let at = 0; at < data.length;) at += writeSync(fd, data, at, data.length - at)
}

/**
 * Appends `events` and commits `checkpoints` with them. Call under the memory lock. The events are redacted
 * already (events.ts); the checkpoints' carries hold only redacted text.
 */
export async function appendEvents(m: MemoryLayout, state: LogState, events: SearchEvent[], checkpoints: Record<string, Checkpoint>): Promise<LogState> {
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
  const next: LogState = { version: 1, segment, committed, sources: { ...state.sources, ...checkpoints } }
  await writeJson(m.state, next, { redacted: true, compact: true })
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
          const text = data.toString('utf8', start, nl)
          try {
            const event = JSON.parse(text) as SearchEvent
            if (event && typeof event.id === 'string' && typeof event.text === 'string') {
              pending.push({ event, segment: seg, offset: carryAt + start, length: nl - start })
            } else torn++
          } catch {
            torn++
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
